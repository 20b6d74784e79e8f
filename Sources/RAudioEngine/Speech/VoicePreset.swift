// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// How raudio speaks one language by default: which eSpeak NG voice, how fast, how high, and which
/// neural voice `--engine piper` prefers for it.
///
/// Read from one JSON file of the `voices/` folder (format in `voices/README.md`). `rate` is in words
/// per minute (eSpeak's `espeakRATE`, 80-450) and `pitch` on eSpeak's 0-100 scale (`espeakPITCH`);
/// the user's speed and pitch multiply them.
public struct VoicePreset: Sendable, Hashable {
    /// The language this preset is for; nil for the default preset (`"language": "*"`), used for
    /// languages with no preset and as the fallback voice.
    public var language: Language?
    /// The eSpeak NG voice identifier (`fr`, `en-us`).
    public var voice: String
    public var rate: Int
    public var pitch: Int
    /// The Piper voice (`piper:NAME`) that `raudio speak --engine piper` speaks this language with when it
    /// is installed; nil when the preset names none (the first installed Piper voice of the language then).
    public var neuralVoice: String?
    /// The file it came from, for messages; nil for built-in presets.
    public var file: String?

    public static let rateRange = 80...450
    public static let pitchRange = 0...100

    /// The prefix of a neural voice's identifier (`piper:en_US-joe-medium`).
    public static let neuralVoicePrefix = "piper:"

    public init(language: Language?, voice: String, rate: Int, pitch: Int, neuralVoice: String? = nil, file: String? = nil) {
        self.language = language
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.neuralVoice = neuralVoice
        self.file = file
    }

    /// Parses one preset file's JSON. Throws a message naming `file` and what is wrong.
    public static func parse(_ data: Data, file: String) throws(VoicePresetError) -> VoicePreset {
        let json: JSONValue
        do {
            json = try JSONParser.parse(data)
        } catch {
            throw VoicePresetError(file: file, message: "not valid JSON: \(error)")
        }
        guard let object = json.objectValue else {
            throw VoicePresetError(file: file, message: "expected a JSON object, found \(json.kindName)")
        }
        if let version = object["version"], version.intValue != 1 {
            throw VoicePresetError(file: file, message: "unsupported version \(version.serialized()); this raudio reads version 1")
        }
        guard let tag = object["language"]?.stringValue, !tag.isEmpty else {
            throw VoicePresetError(file: file, message: "\"language\" (a BCP-47 tag, or \"*\" for the default) is missing")
        }
        let language = tag == "*" ? nil : Language(code: tag)
        if let language, !language.isWellFormed {
            throw VoicePresetError(file: file, message: "\"language\": \"\(tag)\" is not a BCP-47 tag")
        }
        guard let voice = object["voice"]?.stringValue, !voice.isEmpty else {
            throw VoicePresetError(file: file, message: "\"voice\" (an eSpeak NG voice identifier such as \"fr\") is missing")
        }
        let rate = try integer(object["rate"], named: "rate", default: 160, range: rateRange, file: file)
        let pitch = try integer(object["pitch"], named: "pitch", default: 50, range: pitchRange, file: file)
        var neuralVoice: String?
        if let neural = object["neural"] {
            guard let name = neural.stringValue, name.hasPrefix(neuralVoicePrefix), name.count > neuralVoicePrefix.count else {
                throw VoicePresetError(file: file, message: "\"neural\" must name a Piper voice as \"\(neuralVoicePrefix)NAME\", found \(neural.serialized())")
            }
            neuralVoice = name
        }
        return VoicePreset(language: language, voice: voice.lowercased(), rate: rate, pitch: pitch, neuralVoice: neuralVoice, file: file)
    }

    private static func integer(
        _ value: JSONValue?, named name: String, default defaultValue: Int, range: ClosedRange<Int>, file: String
    ) throws(VoicePresetError) -> Int {
        guard let value else { return defaultValue }
        guard let integer = value.intValue else {
            throw VoicePresetError(file: file, message: "\"\(name)\" must be a whole number, found \(value.serialized())")
        }
        guard range.contains(integer) else {
            throw VoicePresetError(file: file, message: "\"\(name)\": \(integer) is outside \(range.lowerBound)-\(range.upperBound)")
        }
        return integer
    }
}

/// A preset file that could not be used: a warning naming the file; the other presets still load.
public typealias VoicePresetError = RAudioError<VoicePresetErrorDomain>

/// The domain of `VoicePresetError`; its codes are words of `RAudioErrorCode`.
public enum VoicePresetErrorDomain: RAudioErrorDomain {}

extension VoicePresetError {
    /// The error of the preset `file`.
    init(file: String, message: String, sourceFile: String = #fileID, function: String = #function, line: Int = #line) {
        self.init(.voicePresetInvalid, subject: file, message: message, file: sourceFile, function: function, line: line)
    }

    /// The preset file.
    public var file: String { subject ?? "" }
}
