// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// The lines `raudio espeak-worker` and `ESpeakWorkerPool` exchange over the worker's stdin and stdout.
///
/// - Start: the worker writes `{"sample_rate": 22050}` once eSpeak NG is up, or `{"error": MESSAGE}`.
/// - Request (one JSON line): `{"text": T, "voice": ID}` or `{"text": T, "language": TAG}`, with `"rate"`,
///   `"pitch"` and `"volume"`, the `TTSUtterance`'s multipliers, and `"phonemes": [[from, to, IPA], ...]` when parts
///   of the text are spoken as phonemes (UTF-8 offsets into the text).
/// - Answer: a JSON header line `{"samples": N, "voice": ID, "warning": W, "words": [[from, to, frame], ...]}`
///   (word ranges as UTF-8 offsets into the request's text, each word's first frame in the PCM), then N
///   Int16 samples, eSpeak NG's own at volume 1, in the machine's byte order (the worker is the same
///   binary on the same machine; `ESpeakWorkerPCM`: raudio applies the request's volume as it reads them);
///   a failure is `{"samples": 0, "error": MESSAGE, "code": TTSError.Code, "status": N}`.
///
/// Pure functions, no I/O: any thread.
enum ESpeakWorkerMessage {
    /// What the header line of an answer says.
    struct AnswerHeader: Sendable {
        var sampleCount: Int
        var voiceIdentifier: String?
        var warning: String?
        /// UTF-8 offsets of each word's range in the text and its first frame.
        var words: [(from: Int, to: Int, frame: Int64)]
        var error: TTSError?
    }

    // MARK: Start

    static func ready(sampleRate: Int) -> String {
        JSONValue.object(["sample_rate": .integer(Int64(sampleRate))]).serialized()
    }

    static func startupFailure(_ error: TTSError) -> String {
        JSONValue.object(["error": .string(error.message)]).serialized()
    }

    /// What a worker's start line says.
    enum Start: Equatable {
        case ready(sampleRate: Int)
        case failed(reason: String)
    }

    /// The sample rate of a start line, or why the worker could not start.
    static func parseReady(_ line: String) -> Start {
        guard let value = try? JSONValue(parsing: Array(line.utf8)), case .object(let fields) = value else {
            return .failed(reason: "it said \"\(line.prefix(200))\" instead of starting")
        }
        if let message = fields["error"]?.stringValue { return .failed(reason: message) }
        guard let rate = fields["sample_rate"]?.intValue, rate > 0 else { return .failed(reason: "it gave no sample rate") }
        return .ready(sampleRate: rate)
    }

    // MARK: Requests

    static func request(for utterance: TTSUtterance) -> String {
        var fields: [(String, JSONValue)] = [("text", .string(utterance.text))]
        switch utterance.voiceOrLanguage {
        case .voice(let voice): fields.append(("voice", .string(voice.identifier)))
        case .language(let language): fields.append(("language", .string(language.code)))
        }
        fields += [("rate", .number(of: utterance.rate)), ("pitch", .number(of: utterance.pitch)), ("volume", .number(of: utterance.volume))]
        if !utterance.phonemes.isEmpty {
            fields.append(("phonemes", .array(utterance.phonemes.map {
                .array([.integer(Int64($0.range.lowerBound)), .integer(Int64($0.range.upperBound)), .string($0.phonemes)])
            })))
        }
        return JSONValue.object(JSONObject(fields)).serialized()
    }

    /// The utterance a request line asks for, nil when the line is not a request. A voice is named by
    /// its identifier only: the worker's engine looks it up.
    static func parseRequest(_ line: String) -> TTSUtterance? {
        guard let value = try? JSONValue(parsing: Array(line.utf8)), case .object(let fields) = value,
              let text = fields["text"]?.stringValue else { return nil }
        let voiceOrLanguage: TTSUtterance.VoiceOrLanguage
        if let identifier = fields["voice"]?.stringValue {
            voiceOrLanguage = .voice(TTSVoice(identifier: identifier, name: identifier, language: Language(code: "und")))
        } else if let code = fields["language"]?.stringValue {
            voiceOrLanguage = .language(Language(code: code))
        } else {
            return nil
        }
        var utterance = TTSUtterance(text: text, voiceOrLanguage: voiceOrLanguage, rate: fields["rate"]?.doubleValue ?? 1,
                                     pitch: fields["pitch"]?.doubleValue ?? 1, volume: fields["volume"]?.doubleValue ?? 1)
        let length = text.utf8.count
        utterance.phonemes = (fields["phonemes"]?.arrayValue ?? []).compactMap { entry in
            guard let values = entry.arrayValue, values.count == 3, let from = values[0].intValue, let to = values[1].intValue,
                  let phonemes = values[2].stringValue, from >= 0, from < to, to <= length else { return nil }
            return PhonemeSpan(range: from..<to, phonemes: phonemes)
        }
        return utterance
    }

    // MARK: Answers

    /// The header line of an answer: the utterance's sample count, voice and words, or its error.
    static func answerHeader(for result: Result<SynthesizedUtterance, TTSError>) -> String {
        switch result {
        case .success(let spoken):
            let text = spoken.text
            let words = spoken.wordBoundaries.map { boundary -> JSONValue in
                .array([
                    .integer(Int64(text.utf8.distance(from: text.startIndex, to: boundary.range.lowerBound))),
                    .integer(Int64(text.utf8.distance(from: text.startIndex, to: boundary.range.upperBound))),
                    .integer(boundary.startFrame),
                ])
            }
            var fields: [(String, JSONValue)] = [("samples", .integer(Int64(spoken.samples.count))), ("voice", .string(spoken.voice.identifier))]
            if let warning = spoken.warning { fields.append(("warning", .string(warning))) }
            fields.append(("words", .array(words)))
            return JSONValue.object(JSONObject(fields)).serialized()
        case .failure(let error):
            var fields: [(String, JSONValue)] = [("samples", .integer(0)), ("error", .string(error.message)), ("code", .string(error.code.rawValue))]
            if let status = error.underlyingStatus { fields.append(("status", .integer(Int64(status)))) }
            return JSONValue.object(JSONObject(fields)).serialized()
        }
    }

    /// A failure answer for a line that was not a request (the worker stays in step with its reader).
    static func badRequest(_ line: String) -> String {
        answerHeader(for: .failure(TTSError(.synthesisFailed, message: "the eSpeak NG worker got a line that is not a request: \"\(line.prefix(80))\"")))
    }

    /// The header of an answer, nil when the line breaks the protocol.
    static func parseAnswerHeader(_ line: String) -> AnswerHeader? {
        guard let value = try? JSONValue(parsing: Array(line.utf8)), case .object(let fields) = value,
              let count = fields["samples"]?.intValue, count >= 0 else { return nil }
        var header = AnswerHeader(sampleCount: count, voiceIdentifier: fields["voice"]?.stringValue,
                                  warning: fields["warning"]?.stringValue, words: [], error: nil)
        if let message = fields["error"]?.stringValue {
            let code = fields["code"]?.stringValue.flatMap(TTSError.Code.init(rawValue:)) ?? .synthesisFailed
            header.error = TTSError(code, message: message, underlyingStatus: fields["status"]?.intValue.flatMap { Int32(exactly: $0) })
        }
        for entry in fields["words"]?.arrayValue ?? [] {
            guard let values = entry.arrayValue, values.count == 3, let from = values[0].intValue, let to = values[1].intValue,
                  let frame = values[2].intValue else { return nil }
            header.words.append((from, to, Int64(frame)))
        }
        return header
    }

    /// The word boundaries of `header` in `text` (the request's text): each offset range must lie in
    /// the text and each frame in the PCM, in order; nil when one does not (a broken answer).
    static func wordBoundaries(of header: AnswerHeader, in text: String, frameCount: Int64) -> [TTSWordBoundary]? {
        let utf8 = text.utf8
        let length = utf8.count
        var boundaries: [TTSWordBoundary] = []
        boundaries.reserveCapacity(header.words.count)
        var lastFrame: Int64 = 0
        for word in header.words {
            guard word.from >= 0, word.from <= word.to, word.to <= length, word.frame >= lastFrame, word.frame <= frameCount else { return nil }
            lastFrame = word.frame
            let lower = utf8.index(utf8.startIndex, offsetBy: word.from)
            let upper = utf8.index(utf8.startIndex, offsetBy: word.to)
            boundaries.append(TTSWordBoundary(range: lower..<upper, startFrame: word.frame))
        }
        return boundaries
    }
}
