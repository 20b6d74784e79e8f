// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens one item of a `RenderSource` on a thread of its own, so that a slow opening (a remote track's
/// first request to a stalled server) never holds up the render thread while the current item plays.
///
/// Made and read by the render thread; the opening thread only calls `openItem(at:)` and stores its
/// result. An opening nobody takes (a seek elsewhere, a stop) is simply dropped when it finishes.
final class ItemOpening: @unchecked Sendable {
    let index: Int
    /// Guards `result`; signalled when it is set.
    private let condition = NSCondition()
    private var result: Result<any AudioDecoder, any Error>?

    /// Starts opening the item at `index` of `source` at once.
    init(index: Int, source: any RenderSource) {
        self.index = index
        BlockingWork.startThread(named: "raudio.item-opening") { [self] in
            let opened: Result<any AudioDecoder, any Error>
            do {
                opened = .success(try source.openItem(at: index))
            } catch {
                opened = .failure(error)
            }
            condition.lock()
            result = opened
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Whether the opening finished (successfully or not).
    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    /// The opened decoder, waiting for the opening to finish; throws what the opening threw.
    func waitForDecoder() throws -> any AudioDecoder {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}
