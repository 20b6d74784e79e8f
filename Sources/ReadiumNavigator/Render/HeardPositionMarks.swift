// SPDX-License-Identifier: GPL-3.0-or-later
/// Maps output frames back to item positions, so that `written - sink.pendingFrames` tells which
/// media frame is being heard, whatever the speed and resampling.
///
/// A fixed ring of marks (allocated once): each says "output up to frame `outputEnd` came from item
/// `item` up to its frame `itemFrame`", with how many item frames one output frame stands for.
/// Render thread only.
struct HeardPositionMarks {
    struct Mark {
        var outputEnd: Int64 = 0
        var item = 0
        var itemFrame: Int64 = 0
        var sampleRate = 1
        /// Item frames per output frame: speed x item rate / output rate.
        var ratio = 1.0
    }

    private var marks: [Mark]
    private var start = 0
    private(set) var count = 0

    init(capacity: Int = 1024) {
        marks = Array(repeating: Mark(), count: capacity)
    }

    mutating func removeAll() {
        start = 0
        count = 0
    }

    /// Records a mark; the oldest is forgotten when the ring is full.
    mutating func append(_ mark: Mark) {
        if count == marks.count {
            start = (start + 1) % marks.count
            count -= 1
        }
        marks[(start + count) % marks.count] = mark
        count += 1
    }

    /// The item position heard at output frame `heard`, or nil without marks.
    func position(heardAt heard: Int64) -> RenderPosition? {
        guard count > 0 else { return nil }
        // The oldest mark whose output end is at or past the heard frame: walk back from the newest.
        var index = count - 1
        while index > 0, marks[(start + index - 1) % marks.count].outputEnd >= heard {
            index -= 1
        }
        let mark = marks[(start + index) % marks.count]
        let behind = max(0, mark.outputEnd - heard)
        var frame = mark.itemFrame - Int64((Double(behind) * mark.ratio).rounded())
        if index > 0 {
            let previous = marks[(start + index - 1) % marks.count]
            if previous.item == mark.item { frame = max(frame, previous.itemFrame) }
        }
        return RenderPosition(item: mark.item, frame: max(0, frame), sampleRate: mark.sampleRate)
    }
}
