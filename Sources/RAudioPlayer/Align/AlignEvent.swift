// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// What `raudio align` reports as it goes: values inside the process, a JSON line each on stdout when it is not
/// a terminal (docs/events.md, "raudio align"), with `raudio render`'s `v` and `type`.
public enum AlignEvent: Sendable {
    /// The book and the audio are open: aligning starts.
    case started(title: String, audioFiles: Int, output: String)
    case progress(AlignProgressReport)
    case warning(RenderWarning)
    /// One content document's coverage: sentences aligned and not found in the audio.
    case chapter(BookAlignment.ChapterCoverage)
    /// Narration with no text.
    case unmatchedAudio(BookAlignment.AudioSpan)
    /// Text with no narration (consecutive sentences of one document).
    case unmatchedText(BookAlignment.TextSpan)
    /// A file was written (renamed to its path): `epub3` or `alignment`.
    case output(format: String, path: String)
    /// Done: the coverage of the whole book.
    case done(sentences: Int, aligned: Int, unmatchedAudioSeconds: Double, audioSeconds: Double, wallSeconds: Double)
    /// The run failed: nothing is left under the output's name; the process exits with `status`.
    case error(CommandFailure)

    public static let protocolVersion: Int64 = RenderEvent.protocolVersion

    public enum Kind: String, Sendable, CaseIterable {
        case started, progress, warning, chapter, unmatchedAudio = "unmatched-audio", unmatchedText = "unmatched-text", output, done, error
    }

    public var kind: Kind {
        switch self {
        case .started: .started
        case .progress: .progress
        case .warning: .warning
        case .chapter: .chapter
        case .unmatchedAudio: .unmatchedAudio
        case .unmatchedText: .unmatchedText
        case .output: .output
        case .done: .done
        case .error: .error
        }
    }

    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [("v", .integer(Self.protocolVersion)), ("type", .string(kind.rawValue))]
        switch self {
        case .started(let title, let audioFiles, let output):
            pairs += [("title", .string(title)), ("audioFiles", .integer(Int64(audioFiles))), ("output", .string(output))]
        case .progress(let report):
            pairs += [("stage", .string(report.stage.rawValue)), ("done", .integer(Int64(report.done))), ("total", .integer(Int64(report.total))),
                      ("progression", .number(report.fraction))]
            if let href = report.href { pairs.append(("href", .string(href))) }
        case .warning(let warning):
            pairs += [("code", .string(warning.code)), ("message", .string(warning.message)), ("fatal", .bool(false))]
            if let href = warning.href { pairs.append(("href", .string(href))) }
        case .chapter(let chapter):
            pairs += [("href", .string(chapter.href)), ("sentences", .integer(Int64(chapter.sentences))), ("aligned", .integer(Int64(chapter.aligned))),
                      ("notFound", .integer(Int64(chapter.notFound)))]
            if let title = chapter.title { pairs.append(("title", .string(title))) }
            if let audio = chapter.audioHref, let begin = chapter.begin, let end = chapter.end {
                pairs += [("audioHref", .string(audio)), ("begin", .number(begin)), ("end", .number(end))]
            }
        case .unmatchedAudio(let span):
            pairs += [("audioHref", .string(span.audioHref)), ("begin", .number(span.begin)), ("end", .number(span.end)),
                      ("seconds", .number((span.duration * 1000).rounded() / 1000)), ("reason", .string(span.reason))]
        case .unmatchedText(let span):
            pairs += [("href", .string(span.href)), ("firstUtterance", .integer(Int64(span.firstUtterance))),
                      ("lastUtterance", .integer(Int64(span.lastUtterance))), ("reason", .string(span.reason))]
        case .output(let format, let path):
            pairs += [("format", .string(format)), ("path", .string(path))]
        case .done(let sentences, let aligned, let unmatchedAudioSeconds, let audioSeconds, let wallSeconds):
            pairs += [("sentences", .integer(Int64(sentences))), ("aligned", .integer(Int64(aligned))), ("notFound", .integer(Int64(sentences - aligned))),
                      ("unmatchedAudioSeconds", .number((unmatchedAudioSeconds * 1000).rounded() / 1000)), ("audioSeconds", .number(audioSeconds)),
                      ("wallSeconds", .number(wallSeconds))]
        case .error(let failure):
            pairs += [("code", .string(failure.code)), ("message", .string(failure.message)), ("fatal", .bool(true)),
                      ("exitStatus", .integer(Int64(failure.status.rawValue)))]
        }
        return .object(JSONObject(pairs))
    }
}

extension BookAligner {
    /// The narrated documents of `alignment` for `MediaOverlayEPUBWriter`: each placed sentence a clip in its audio
    /// file (`audio`, by `BookAlignment.AudioFile.href`), its target the utterance's as a render marks it. The
    /// utterances are read again from `publication` with `configuration` (the alignment's); throws when they are not
    /// the alignment's (another edition of the book).
    public static func narratedDocuments(for alignment: BookAlignment, publication: Publication, configuration: SpeechSynthesizerConfiguration,
                                         audio: [String: ClipAudio]) throws(CommandFailure) -> [NarratedDocument] {
        let sequence: SpeechUtterances
        do {
            sequence = try SpeechUtterances(publication: publication, configuration: configuration)
        } catch {
            throw CommandFailure(.badData, code: "no-text", message: "\(publication.title): has no text (\(error.message))", cause: error)
        }
        let byUtterance = Dictionary(alignment.sentences.map { ($0.utterance, $0) }, uniquingKeysWith: { first, _ in first })
        var documents: [NarratedDocument] = []
        var iterator = sequence.makeIterator()
        var index = 0
        while let utterance = iterator.next() {
            defer { index += 1 }
            guard let sentence = byUtterance[index] else { continue }
            guard sentence.text == utterance.text else {
                throw CommandFailure(.badData, code: RAudioErrorCode.alignStale.rawValue,
                                     message: "\(sentence.href): the alignment's sentence \(index) (\"\(sentence.text.prefix(40))\") is not the book's (\"\(utterance.text.prefix(40))\"): align this edition again")
            }
            guard sentence.isPlaced, let href = sentence.audioHref, let clipAudio = audio[href], let begin = sentence.begin, let end = sentence.end, end > begin else { continue }
            let clip = NarrationClip(target: utterance.narrationTarget, begin: begin, end: end, audio: clipAudio)
            if documents.last?.href == sentence.href {
                documents[documents.count - 1].clips.append(clip)
            } else {
                documents.append(NarratedDocument(href: sentence.href, audioFile: clipAudio.file, audioMediaType: clipAudio.mediaType,
                                                  duration: clipAudio.duration, clips: [clip]))
            }
        }
        return documents
    }
}
