// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Bookmarks, kept in the listening state (`ListeningMemory`).
extension SessionLoop {
    /// `bookmark [note]`, `bookmarks` and `go bookmark:ID`, kept in the listening state.
    public mutating func handleBookmark(_ request: PlayerCommandRequest) async throws(ReaderGone) {
        guard let memory else {
            try writer.report(.error, code: "state-unavailable", message: "'\(request.command.name)' needs the listening state, which this session does not keep (--no-state, or the store could not be opened)",
                              fatal: false, id: request.id)
            return
        }
        do {
            switch request.command {
            case .bookmark(let note):
                // The position being heard: a speech locator carries the sentence's quote.
                let heard = await controller.status().locator
                guard let locator = heard ?? lastLocator else {
                    try writer.report(.error, code: "no-position", message: "nothing has played yet: there is no position to bookmark", fatal: false, id: request.id)
                    return
                }
                let bookmark = try memory.addBookmark(at: locator, note: note)
                try writer.write(.ack(request.command, id: request.id))
                try writer.write(.bookmark(bookmark))
            case .bookmarks:
                let bookmarks = try memory.bookmarks()
                try writer.write(.ack(request.command, id: request.id))
                try writer.write(.bookmarks(bookmarks))
            case .goToBookmark(let id):
                guard let bookmark = try memory.bookmarks().first(where: { $0.id == id }) else {
                    try writer.report(.error, code: "bookmark-not-found", message: "this book has no bookmark \(id); the bookmarks command lists them", fatal: false, id: request.id)
                    return
                }
                do {
                    try await controller.perform(.go(locatorJSON: Data(bookmark.locator.utf8)))
                } catch {
                    try writer.report(.error, code: error.code, message: "bookmark \(id): \(error.message)", fatal: false, id: request.id)
                    return
                }
                try writer.write(.ack(request.command, id: request.id))
            default:
                break
            }
        } catch let gone as ReaderGone {
            throw gone
        } catch {
            try writer.report(.error, code: "state-failed", message: "the listening state failed: \(error)", fatal: false, id: request.id)
        }
    }
}
