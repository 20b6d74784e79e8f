// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import ReadiumNavigator

@Suite("HeardPositionMarks")
struct HeardPositionMarksTests {
    @Test func heardFrameMapsBackThroughSpeedAndItemBoundaries() {
        var marks = HeardPositionMarks(capacity: 8)
        // Item 0 at 2x speed: 100 output frames stand for 200 item frames.
        marks.append(.init(outputEnd: 100, item: 0, itemFrame: 200, sampleRate: 1000, ratio: 2))
        marks.append(.init(outputEnd: 200, item: 0, itemFrame: 400, sampleRate: 1000, ratio: 2))
        marks.append(.init(outputEnd: 300, item: 1, itemFrame: 100, sampleRate: 500, ratio: 1))
        #expect(marks.position(heardAt: 200) == RenderPosition(item: 0, frame: 400, sampleRate: 1000))
        #expect(marks.position(heardAt: 150) == RenderPosition(item: 0, frame: 300, sampleRate: 1000))
        #expect(marks.position(heardAt: 250) == RenderPosition(item: 1, frame: 50, sampleRate: 500))
        #expect(marks.position(heardAt: 300) == RenderPosition(item: 1, frame: 100, sampleRate: 500))
    }

    @Test func fullRingForgetsTheOldestMarks() {
        var marks = HeardPositionMarks(capacity: 2)
        for index in 1...5 {
            marks.append(.init(outputEnd: Int64(index * 10), item: 0, itemFrame: Int64(index * 10), sampleRate: 1, ratio: 1))
        }
        #expect(marks.count == 2)
        // Only the last two marks are kept: 35 maps through the mark ending at 40.
        #expect(marks.position(heardAt: 35)?.frame == 35)
        #expect(marks.position(heardAt: 50)?.frame == 50)
        marks.removeAll()
        #expect(marks.position(heardAt: 0) == nil)
    }
}
