// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// One Piper voice on disk: a VITS ONNX model and its `.onnx.json` config, read without loading the model.
///
/// The identifier is `piper:` and the model's file name without `.onnx` (`piper:en_US-joe-medium`);
/// the language, quality and sample rate come from the config. Pure value; any thread.
public struct PiperVoiceFile: Sendable, Hashable {
    public var model: URL
    public var config: URL
    /// `en_US-joe-medium`.
    public var name: String
    public var language: Language
    /// `x_low`, `low`, `medium` or `high`, as the config says.
    public var quality: String
    public var sampleRate: Int

    public static let identifierPrefix = "piper:"

    public var identifier: String { Self.identifierPrefix + name }

    /// The voice as a `TTSVoice` (`piper:en_US-joe-medium`, "joe (en-US, medium)").
    public var ttsVoice: TTSVoice {
        let dataset = name.split(separator: "-").dropFirst().first.map(String.init) ?? name
        return TTSVoice(identifier: identifier, name: "\(dataset) (\(language.code), \(quality), Piper)", language: language)
    }

    /// Reads `model`'s config (`model` + `.json`); throws `.badVoice` naming the file when it is
    /// missing, not JSON, or lacks the sample rate, and when the model is missing or empty.
    public init(model: URL) throws(PiperError) {
        let config = URL(fileURLWithPath: model.path + ".json")
        guard let data = FileManager.default.contents(atPath: config.path) else {
            throw PiperError(.badVoice, message: "\(config.path): the voice's config is missing or unreadable")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw PiperError(.badVoice, message: "\(config.path): not a Piper voice config (not a JSON object)")
        }
        let audio = object["audio"] as? [String: Any]
        guard let sampleRate = audio?["sample_rate"] as? Int, sampleRate > 0, object["phoneme_id_map"] is [String: Any] else {
            throw PiperError(.badVoice, message: "\(config.path): not a Piper voice config (no audio.sample_rate or phoneme_id_map)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: model.path)[.size] as? Int) ?? nil
        guard let size, size > 0 else {
            throw PiperError(.badVoice, message: "\(model.path): the voice model is missing or empty")
        }
        let code = ((object["language"] as? [String: Any])?["code"] as? String) ?? "und"
        self.model = model
        self.config = config
        name = model.deletingPathExtension().lastPathComponent
        language = Language(code: code.replacingOccurrences(of: "_", with: "-"))
        quality = (audio?["quality"] as? String) ?? "unknown"
        self.sampleRate = sampleRate
    }
}
