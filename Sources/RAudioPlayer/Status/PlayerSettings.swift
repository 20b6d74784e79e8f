// SPDX-License-Identifier: GPL-3.0-or-later
/// The settings a listener changes while listening, as `settings` events report them.
public struct PlayerSettings: Equatable, Sendable {
    public var speed: Double = 1
    /// The listener's volume (a sleep timer's fade lowers the output, not this).
    public var volume: Double = 1
    /// Text-to-speech only: the pitch multiplier.
    public var pitch: Double?
    /// Text-to-speech only: the voice asked for (an identifier or a BCP 47 tag).
    public var voice: String?

    public init(speed: Double = 1, volume: Double = 1, pitch: Double? = nil, voice: String? = nil) {
        (self.speed, self.volume, self.pitch, self.voice) = (speed, volume, pitch, voice)
    }

    /// Takes the value of an accepted `speed`, `volume`, `pitch` or `voice` command; false for others.
    public mutating func take(_ command: PlayerCommand) -> Bool {
        switch command {
        case .speed(let value): speed = value
        case .volume(let value): volume = value
        case .pitch(let value): pitch = value
        case .voice(let value): voice = value
        default: return false
        }
        return true
    }
}
