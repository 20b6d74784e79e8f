// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A file `raudio render` writes: its format and path.
public struct RenderOutput: Sendable, Hashable {
    public enum Format: String, Sendable, CaseIterable {
        case m4b
        case audiobook
        case epub3
        /// One share's synthesized speech (`--shard I/N`), for `--merge`.
        case part
    }

    public var format: Format
    public var path: String

    public init(format: Format, path: String) {
        self.format = format
        self.path = path
    }
}

/// What `raudio render` reports as it goes: values inside the process, a JSON line each on stdout
/// (`json`, docs/events.md, "raudio render").
public enum RenderEvent: Sendable {
    /// The book is open and the engine ready: rendering starts.
    case started(title: String, outputs: [RenderOutput])
    case progress(RenderProgressReport)
    case warning(RenderWarning)
    /// An output was written (renamed to its path).
    case output(RenderOutput, duration: Double)
    /// Everything was written: how many utterances came from the cache and how many were synthesized.
    case done(counts: RenderCounts, audioSeconds: Double, wallSeconds: Double)
    /// The render failed: nothing is left under the outputs' names; the process exits with `status`.
    case error(CommandFailure)

    /// The protocol version of these events, as the player's (`v`).
    public static let protocolVersion: Int64 = 1

    /// The `type` word of each kind.
    public enum Kind: String, Sendable, CaseIterable {
        case started, progress, warning, output, done, error
    }

    public var kind: Kind {
        switch self {
        case .started: .started
        case .progress: .progress
        case .warning: .warning
        case .output: .output
        case .done: .done
        case .error: .error
        }
    }

    /// The event as one JSON object: `v`, `type`, then its keys.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [("v", .integer(Self.protocolVersion)), ("type", .string(kind.rawValue))]
        func counts(_ counts: RenderCounts) -> [(String, JSONValue)] {
            [("utterances", .integer(Int64(counts.utterances))), ("cacheHits", .integer(Int64(counts.cacheHits))),
             ("synthesized", .integer(Int64(counts.synthesized))), ("mediaDecoded", .integer(Int64(counts.mediaDecoded))),
             ("mediaSkipped", .integer(Int64(counts.mediaSkipped)))]
        }
        switch self {
        case .started(let title, let outputs):
            pairs += [("title", .string(title)),
                      ("outputs", .array(outputs.map { .object(JSONObject([("format", .string($0.format.rawValue)), ("path", .string($0.path))])) }))]
        case .progress(let report):
            pairs += [("done", .integer(Int64(report.utterancesDone))), ("total", .integer(Int64(report.utteranceCount))),
                      ("progression", .number(report.fraction)), ("audioSeconds", .number(report.audioSeconds)), ("href", .string(report.href)),
                      ("cacheHits", .integer(Int64(report.counts.cacheHits))), ("synthesized", .integer(Int64(report.counts.synthesized)))]
        case .warning(let warning):
            pairs += [("code", .string(warning.code)), ("message", .string(warning.message)), ("fatal", .bool(false))]
            if let href = warning.href { pairs.append(("href", .string(href))) }
        case .output(let output, let duration):
            pairs += [("format", .string(output.format.rawValue)), ("path", .string(output.path)), ("duration", .number(duration))]
        case .done(let done, let audioSeconds, let wallSeconds):
            pairs += counts(done) + [("audioSeconds", .number(audioSeconds)), ("wallSeconds", .number(wallSeconds))]
        case .error(let failure):
            pairs += [("code", .string(failure.code)), ("message", .string(failure.message)), ("fatal", .bool(true)),
                      ("exitStatus", .integer(Int64(failure.status.rawValue)))]
        }
        return .object(JSONObject(pairs))
    }
}
