// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// The render thread's side of `BookRenderer`: utterances' audio appended in reading order to their content
/// document's audio file (and to the M4B), the clips timed from frame counts, the documents finished as the
/// reading moves on, and the chapters placed at the end.
///
/// The first utterance's format is the book's: audio of another rate (a Piper voice beside eSpeak NG) is
/// resampled to it, so that every file and the M4B share one timeline.
///
/// The encoding runs beside the render thread: the documents' files on one `EncodingPipeline`, the M4B on
/// another, each writer's calls in the order they were made (the same bytes as encoding them in place). An
/// error of theirs (a full disk) is thrown by the next append or by `finish`.
struct NarrationAssembly {
    let settings: RenderSettings
    let audioFolder: URL
    let tags: M4BWriter.Tags
    let m4bRequest: BookRenderer.M4BRequest?
    /// Whether each document's audio is encoded to its file (else only the M4B is written).
    let writesDocuments: Bool
    /// The reading order's hrefs: a document's audio file is named by its place.
    let readingOrder: [String]
    var counts = RenderCounts()
    var warnings: [RenderWarning] = []
    private(set) var format: PCMFormat?
    private var documents: [NarratedDocument] = []
    private var current: OpenDocument?
    private var m4b: ThreadConfined<M4BWriter>?
    /// The documents' encoding (when they are written) and the M4B's (when one is asked for): a thread each.
    private let documentEncoding: EncodingPipeline?
    private let m4bEncoding: EncodingPipeline?
    /// Frames of the documents finished before the current one.
    private var framesBefore: Int64 = 0
    /// Where each spoken utterance starts: its document's place in the reading order, its progression there
    /// and its frame on the whole narration; for the chapters.
    private var starts: [(readingOrderIndex: Int, progression: Double, frame: Int64)] = []

    private struct OpenDocument {
        var href: String
        /// Nil when only the M4B is written (`writesDocuments` false). Used on `documentEncoding`'s thread.
        var writer: ThreadConfined<AudioFileWriter>?
        var path: String
        var frames: Int64 = 0
        var clips: [NarrationClip] = []
    }

    init(settings: RenderSettings, audioFolder: URL, tags: M4BWriter.Tags, m4b: BookRenderer.M4BRequest?, writesDocuments: Bool, readingOrder: [String]) {
        self.writesDocuments = writesDocuments
        self.settings = settings
        self.audioFolder = audioFolder
        self.tags = tags
        self.m4bRequest = m4b
        self.readingOrder = readingOrder
        documentEncoding = writesDocuments ? EncodingPipeline(name: "raudio.encode") : nil
        m4bEncoding = m4b == nil ? nil : EncodingPipeline(name: "raudio.encode-m4b")
    }

    /// The seconds of narration appended so far.
    var bookSeconds: Double {
        guard let format else { return 0 }
        return format.seconds(ofFrames: framesBefore + (current?.frames ?? 0))
    }

    /// Decodes an embedded `audio` or `video` element's media (its first source that decodes) into its place
    /// in the narration, as `raudio speak` plays it; one that cannot be decoded is left out with a warning.
    mutating func appendMedia(_ utterance: SpeechUtterance, opener: EmbeddedMediaOpener) throws(CommandFailure) {
        do {
            let (decoder, _) = try opener.open(utterance.media)
            var samples: [Float] = []
            var buffer = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
            while true {
                let frames = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(AudioDecoderError) in
                    try decoder.read(into: pointer.baseAddress!, maxFrames: 4096)
                }
                if frames == 0 { break }
                samples.append(contentsOf: buffer[0..<(frames * decoder.format.channelCount)])
            }
            let heard = SynthesizedUtterance(text: "", voice: TTSVoice(identifier: "media", name: "the book's own audio", language: Language(code: "und")),
                                             format: decoder.format, samples: samples, wordBoundaries: [])
            try append(heard, of: utterance)
            counts.mediaDecoded += 1
        } catch let error as AudioDecoderError {
            counts.mediaSkipped += 1
            let sources = utterance.media.map(\.href).joined(separator: ", ")
            warnings.append(RenderWarning(code: "media-skipped", message: "\(utterance.locator.href): its \(utterance.role.name) (\(sources)) cannot be decoded, left out (\(error.message))",
                                          href: utterance.locator.href))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.internalError, code: "internal-error", message: "\(error)")
        }
    }

    /// Appends `synthesized`, the audio of `utterance`, to its document (opening it, finishing the one before)
    /// and to the M4B, with its clips.
    mutating func append(_ synthesized: SynthesizedUtterance, of utterance: SpeechUtterance) throws(CommandFailure) {
        let href = Link(href: utterance.locator.href).hrefWithoutFragment
        if format == nil {
            format = synthesized.format
            if let m4bRequest {
                do {
                    m4b = ThreadConfined(try M4BWriter(path: m4bRequest.path, format: synthesized.format, tags: tags, bitRate: m4bRequest.bitRate))
                } catch {
                    throw CommandFailure(error)
                }
            }
        }
        guard let format else { return }
        if current?.href != href { try openDocument(href, format: format) }
        guard synthesized.format.channelCount > 0, synthesized.format.sampleRate > 0 else { return }
        let samples = try Self.samples(of: synthesized, in: format)
        let frames = Int64(samples.count / format.channelCount)
        // Words' frames scale with a resampled utterance.
        let scale = Double(format.sampleRate) / Double(synthesized.format.sampleRate)
        guard var document = current else { return }
        let start = document.frames
        starts.append((readingOrder.firstIndex(of: href) ?? Int.max, utterance.locator.locations.progression ?? 0, framesBefore + start))
        document.clips += clips(of: utterance, words: synthesized.wordBoundaries, scale: scale, from: start, frames: frames, format: format)
        do {
            if let writer = document.writer { try documentEncoding?.submit { () throws(AudioSinkError) in try writer.value.append(samples) } }
            if let m4b { try m4bEncoding?.submit { () throws(AudioSinkError) in try m4b.value.append(samples) } }
        } catch {
            current = document
            throw CommandFailure(error)
        }
        document.frames += frames
        current = document
    }

    /// The clips of one utterance starting at frame `start` of its document: one for it, or one per word
    /// (a word heard at the same frame as the next joins its clip). The first starts with the utterance, each
    /// ends where the next begins, the last with the utterance.
    private func clips(of utterance: SpeechUtterance, words: [TTSWordBoundary], scale: Double, from start: Int64, frames: Int64,
                       format: PCMFormat) -> [NarrationClip] {
        func seconds(_ frame: Int64) -> Double { format.seconds(ofFrames: start + frame) }
        guard settings.granularity == .word, !words.isEmpty, frames > 0 else {
            return [NarrationClip(target: NarrationTargets.target(of: utterance), begin: seconds(0), end: seconds(frames))]
        }
        // Each clip's text runs from its word to the next word heard (words the engine gave no boundary for
        // join the one before), the first from the utterance's start, the last to its end; without the spaces
        // at its ends.
        let text = utterance.text
        var clips: [NarrationClip] = []
        var lower = text.startIndex
        var lastClipLower = text.startIndex
        for (index, word) in words.enumerated() {
            let begin = index == 0 ? 0 : min(frames, Int64((Double(word.startFrame) * scale).rounded()))
            let next = index + 1 < words.count ? words[index + 1] : nil
            let end = next.map { min(frames, Int64((Double($0.startFrame) * scale).rounded())) } ?? frames
            let upper = max(lower, min(next?.range.lowerBound ?? text.endIndex, text.endIndex))
            if end > begin {
                let range = Self.trimmingSpaces(lower..<upper, of: text)
                clips.append(NarrationClip(target: NarrationTargets.target(of: utterance, wordAt: range), begin: seconds(begin), end: seconds(end)))
                lastClipLower = lower
                lower = upper
            } else if next == nil, let last = clips.indices.last {
                // Words heard at the utterance's very end join the last clip.
                clips[last].target = NarrationTargets.target(of: utterance, wordAt: Self.trimmingSpaces(lastClipLower..<upper, of: text))
            }
            // Else the word is heard at the same frame as the next, and joins its clip.
        }
        if clips.isEmpty {
            return [NarrationClip(target: NarrationTargets.target(of: utterance), begin: seconds(0), end: seconds(frames))]
        }
        return clips
    }

    /// `range` of `text` without the white space at its ends (an empty range stays where it is).
    static func trimmingSpaces(_ range: Range<String.Index>, of text: String) -> Range<String.Index> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, text[lower].isWhitespace { lower = text.index(after: lower) }
        while upper > lower, text[text.index(before: upper)].isWhitespace { upper = text.index(before: upper) }
        return lower..<upper
    }

    /// The utterance's samples in the book's `format` (resampled when the voice speaks another rate).
    private static func samples(of synthesized: SynthesizedUtterance, in format: PCMFormat) throws(CommandFailure) -> [Float] {
        guard synthesized.format != format else { return synthesized.samples }
        do {
            let resampler = try SoxrResampler(from: synthesized.format, to: format)
            synthesized.samples.withUnsafeBufferPointer { resampler.push($0) }
            resampler.flush()
            var output = [Float](repeating: 0, count: resampler.availableFrames * format.channelCount)
            let frames = output.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
            return Array(output.prefix(frames * format.channelCount))
        } catch {
            throw CommandFailure(.internalError, code: "resampling-failed", message: error.message, cause: error)
        }
    }

    private mutating func openDocument(_ href: String, format: PCMFormat) throws(CommandFailure) {
        try finishDocument()
        let place = readingOrder.firstIndex(of: href).map { $0 + 1 } ?? readingOrder.count + documents.count + 1
        let base = ((href as NSString).lastPathComponent as NSString).deletingPathExtension
        let safe = String(base.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" }.prefix(40))
        let name = String(format: "%04d", place) + (safe.isEmpty ? "" : "-" + safe) + "." + settings.codec.fileExtension
        do {
            let path = audioFolder.appendingPathComponent(name).path
            let writer = writesDocuments ? ThreadConfined(try AudioFileWriter(path: path, format: format, codec: settings.codec, tags: tags)) : nil
            current = OpenDocument(href: href, writer: writer, path: path)
        } catch {
            throw CommandFailure(error)
        }
    }

    private mutating func finishDocument() throws(CommandFailure) {
        guard let document = current, let format else { return }
        current = nil
        if let writer = document.writer {
            do {
                try documentEncoding?.submit { () throws(AudioSinkError) in _ = try writer.value.finish() }
            } catch {
                throw CommandFailure(error)
            }
        }
        framesBefore += document.frames
        documents.append(NarratedDocument(href: document.href, audioFile: URL(fileURLWithPath: document.path),
                                          audioMediaType: settings.codec.mediaType, duration: format.seconds(ofFrames: document.frames),
                                          clips: document.clips))
    }

    /// Finishes the last document and the M4B (with the chapters of `chapterMap`); returns the book.
    mutating func finish(chapters chapterMap: ChapterMap) throws(CommandFailure) -> RenderedBook {
        try finishDocument()
        let format = format ?? PCMFormat(sampleRate: 22_050, channelCount: 1)
        let chapters = placedChapters(chapterMap, format: format)
        do {
            if let m4b { try m4bEncoding?.submit { () throws(AudioSinkError) in try m4b.value.finish(chapters: chapters) } }
            try documentEncoding?.drain()
            try m4bEncoding?.drain()
        } catch {
            throw CommandFailure(error)
        }
        documentEncoding?.stop()
        m4bEncoding?.stop()
        return RenderedBook(documents: documents, chapters: chapters, duration: format.seconds(ofFrames: framesBefore), format: format,
                            counts: counts, warnings: warnings)
    }

    /// The table of contents on the narration's timeline: each entry starts with the first utterance at or
    /// after its element (its resource's start without a fragment). Entries after the last utterance, and
    /// those starting where the one before does, are left out.
    private func placedChapters(_ map: ChapterMap, format: PCMFormat) -> [M4BWriter.Chapter] {
        var chapters: [M4BWriter.Chapter] = []
        for entry in map.entries {
            let progression = entry.progression ?? 0
            guard let start = starts.first(where: {
                $0.readingOrderIndex > entry.readingOrderIndex || ($0.readingOrderIndex == entry.readingOrderIndex && $0.progression >= progression - 1e-9)
            }) else { continue }
            let seconds = format.seconds(ofFrames: start.frame)
            if let last = chapters.last, seconds <= last.start { continue }
            chapters.append(M4BWriter.Chapter(title: entry.title, start: seconds))
        }
        return chapters
    }

    /// Gives up: the encoding stops (the files whose jobs it drops are removed as their writers go), and the
    /// open document's and the M4B's temporary files are removed.
    mutating func cancel() {
        documentEncoding?.stop()
        m4bEncoding?.stop()
        current?.writer?.value.cancel()
        current = nil
        m4b?.value.cancel()
        m4b = nil
    }
}
