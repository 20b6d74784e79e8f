// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// `raudio speak`'s navigator.
///
/// Time-based commands make no sense for speech: `seek` is refused, `forward`/`back` move by utterance
/// like `next`/`previous`; `speed` changes the voice's rate from the current utterance on.
extension PublicationSpeechSynthesizer: PlaybackController {
    public func perform(_ command: PlayerCommand) async throws(CommandRefusal) {
        switch command {
        case .seek:
            throw .unsupported(command, "speech moves by utterance; use next, previous, forward, back or go <locator>")
        case .pitch(let value):
            setPitch(value)
        case .voice(let text):
            guard let voice = VoiceResolver.voice(for: text, in: engine) else {
                throw CommandRefusal(code: "command-bad-value", message: "voice \(text): \(VoiceResolver.unknownMessage(text, in: engine))")
            }
            do {
                try setVoice(voice.identifier)
            } catch {
                throw CommandRefusal(code: "command-bad-value", message: "voice \(text): \(error.message)")
            }
        case .escape:
            throw .unsupported(command, "escape leaves a table, list or note of a book with media overlays")
        default:
            _ = try await performNavigatorCommand(command)
        }
    }

    public func setting(after command: PlayerCommand) async -> PlayerCommand {
        guard case .voice = command, let identifier = voiceIdentifier else { return command }
        return .voice(identifier)
    }
}
