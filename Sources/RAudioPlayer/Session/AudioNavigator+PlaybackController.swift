// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// `raudio play`'s navigator for an audiobook: `forward`/`back` skip by the configured intervals.
extension AudioNavigator: PlaybackController {
    public func perform(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .voice, .pitch:
            throw .unsupported(command, "an audiobook has no voice to change; voice and pitch are commands of raudio speak")
        case .escape:
            throw .unsupported(command, "escape leaves a table, list or note of a book with media overlays")
        default:
            _ = try await performNavigatorCommand(command)
        }
    }
}
