// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// `raudio play`'s navigator for a book with media overlays.
///
/// `next`/`previous` (and `forward`/`back`) move by `par`; `escape` leaves the current table, list or
/// note; `seek` moves in narration time (the recorded clips back to back), refused when the narration
/// is all text-to-speech.
extension MediaOverlayNavigator: PlaybackController {
    public func perform(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .escape:
            guard await escape() else {
                throw CommandRefusal(code: "command-unsupported", message: "escape: the text being read is not in a table, list, note or other escapable structure")
            }
        case .voice, .pitch:
            throw .unsupported(command, "the narration is a recording; voice and pitch are commands of raudio speak")
        case .seek:
            guard try await performNavigatorCommand(command) else {
                throw .unsupported(command, "this narration is read with text-to-speech and has no timeline; use next, previous, escape or go <locator>")
            }
        default:
            _ = try await performNavigatorCommand(command)
        }
    }
}
