// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// Where `BookAligner` is, reported as it goes (on its thread).
public struct AlignProgressReport: Sendable {
    public enum Stage: String, Sendable {
        /// The text synthesized as the reference (`done`/`total`: utterances).
        case synthesizing
        /// The narration decoded into features (`done`/`total`: audio files).
        case reading
        /// The reference warped onto the narration (`done`/`total`: located parts of the text).
        case aligning
    }

    public var stage: Stage
    public var done: Int
    public var total: Int
    /// The content document or audio file at hand.
    public var href: String?

    public init(stage: Stage, done: Int, total: Int, href: String?) {
        self.stage = stage
        self.done = done
        self.total = total
        self.href = href
    }

    /// Of the whole run, 0 to 1: synthesis a fifth, reading the audio half, the warping the rest.
    public var fraction: Double {
        let part = total == 0 ? 1 : Double(done) / Double(total)
        switch stage {
        case .synthesizing: return 0.2 * part
        case .reading: return 0.2 + 0.5 * part
        case .aligning: return 0.7 + 0.3 * part
        }
    }
}

/// Lines a human narration up with the book's text (`raudio align`), with no model: each sentence synthesized
/// by eSpeak NG in its language (the reference, timed from frame counts), MFCC of both, and dynamic time warping
/// in stages. (1) Each part of the text (a content document, or a run of short ones, of at least 20 s of
/// reference) is located anywhere in any audio file by its first seconds, so that chapters read in another order
/// or missing do not derail the rest; a part found nowhere is text with no narration. (2) Within each located
/// span, the part's reference is warped onto the narration coarse then fine (`DynamicTimeWarping`), the span's
/// ends open: what the warping leaves before and after, and long stretches it holds on one reference frame, are
/// narration with no text. (3) Each sentence start moves to the quietest frame near it (the pause before it);
/// each sentence gets a confidence from its frames' distances and its length against the reference's, and one
/// below `Options.minimumConfidence` gets no time at all.
public final class BookAligner: Sendable {
    public struct Options: Sendable {
        /// The skipped roles and the language of text that declares none, as `raudio render` takes them: the
        /// same sentences, so the same ids and spans in the written EPUB.
        public var configuration: SpeechSynthesizerConfiguration
        public var fallbackLanguage: Language
        /// The reference's voice for the main language; nil: eSpeak NG's voice for each language.
        public var voice: TTSVoice?
        /// A sentence below this confidence is left without time.
        public var minimumConfidence: Double
        /// Narration with no text shorter than this is not reported.
        public var minimumUnmatchedSeconds: Double
        /// Threads for the warping (the reference's synthesis uses the engine's workers).
        public var jobs: Int
        /// `.model`: the warping's sentence starts refined by forced alignment where an acoustic model exists for the
        /// book's language (English, French; `ForcedAlignerRuntime`); `.dtw`: the warping alone.
        public var method: Method

        public enum Method: String, Sendable, CaseIterable {
            case model, dtw
        }

        public init(configuration: SpeechSynthesizerConfiguration = .init(), fallbackLanguage: Language = Language(code: "en"), voice: TTSVoice? = nil,
                    minimumConfidence: Double = 0.3, minimumUnmatchedSeconds: Double = 2, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                    method: Method = .model) {
            self.method = method
            self.configuration = configuration
            self.fallbackLanguage = fallbackLanguage
            self.voice = voice
            self.minimumConfidence = minimumConfidence
            self.minimumUnmatchedSeconds = minimumUnmatchedSeconds
            self.jobs = max(1, jobs)
        }
    }

    /// The reference of each utterance: where its frames are in the book's reference features.
    struct ReferenceSentence {
        var utterance: SpeechUtterance
        var index: Int
        var href: String
        /// Frames of the book reference; empty for media and empty text.
        var frames: Range<Int>
    }

    /// A content document's reference: its sentences' frames, one after another.
    struct ReferenceChapter {
        var href: String
        var title: String?
        var sentences: [Int]
        var frames: Range<Int>
    }

    let engine: any TTSEngine
    let engineIdentity: String

    public init(engine: any TTSEngine, engineIdentity: String) {
        self.engine = engine
        self.engineIdentity = engineIdentity
    }

    /// Aligns `publication`'s text with `audio`. Blocking (call it from a thread that may block). Throws `CommandFailure`:
    /// no text (65), audio that does not decode or is empty (65), a synthesis that failed (70), narration that matches
    /// none of the text (65, `align-no-match`).
    public func align(publication: Publication, audio: AlignmentAudio, options: Options,
                      progress: (AlignProgressReport) -> Void = { _ in }) throws(CommandFailure) -> BookAlignment {
        let (sentences, chapters, mainLanguage, reference) = try synthesizeReference(publication: publication, options: options, progress: progress)
        let tracks = try Self.readTracks(audio.tracks, jobs: options.jobs, progress: progress)
        var core = AlignmentCore(reference: reference, chapters: chapters, sentences: sentences.map(\.frames), tracks: tracks.map(\.features), options: options)
        let trackIndex = Dictionary(audio.tracks.enumerated().map { ($0.element.href, $0.offset) }, uniquingKeysWith: { first, _ in first })
        core.hints = audio.chapterHints.compactMap { hint in
            trackIndex[hint.trackHref].map { AlignmentCore.Hint(track: $0, frame: SpeechFeatures.frame(atSeconds: hint.start)) }
        }
        var result = core.run { done, total in progress(AlignProgressReport(stage: .aligning, done: done, total: total, href: nil)) }
        guard result.placements.contains(where: { $0 != nil }) else {
            throw CommandFailure(.badData, code: RAudioErrorCode.alignNoMatch.rawValue,
                                 message: "\(audio.tracks.first?.href ?? "the audio"): no part of the narration matches the text of \(publication.title) (another book, or another language than the text's?)")
        }
        if options.method == .model {
            refineWithModel(&result.placements, sentences: sentences, mainLanguage: mainLanguage, tracks: tracks.map(\.features), audio: audio)
        }
        var alignment = assemble(publication: publication, mainLanguage: mainLanguage, sentences: sentences, chapters: chapters,
                                 tracks: tracks.map { ($0.href, $0.features.seconds) }, result: result, options: options)
        if !core.hints.isEmpty {
            alignment.chapterMarks = BookAlignment.ChapterMarks(given: core.hints.count, confirmed: result.partsAtChapterMarks)
        }
        return alignment
    }

    // MARK: Narration

    /// Each track's features, normalized, decoded on `jobs` threads at once (a track per thread; the calling thread
    /// reads too and reports the progress). The first track in order that fails decides the error.
    static func readTracks(_ tracks: [AlignmentAudio.Track], jobs: Int,
                           progress: (AlignProgressReport) -> Void) throws(CommandFailure) -> [(href: String, features: SpeechFeatures)] {
        let count = tracks.count
        let results = Locked([Result<SpeechFeatures, CommandFailure>?](repeating: nil, count: count))
        let next = Locked(0), finished = Locked(0)
        let read: @Sendable () -> Int? = {
            let index = next.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            guard index < count else { return nil }
            let result = Result { () throws(CommandFailure) in try BookAligner.features(of: tracks[index]) }
            results.withLock { $0[index] = result }
            return finished.withLock { value -> Int in
                value += 1
                return value
            }
        }
        let group = DispatchGroup()
        for _ in 1..<max(1, min(jobs, count)) {
            DispatchQueue.global().async(group: group) { while read() != nil {} }
        }
        progress(AlignProgressReport(stage: .reading, done: 0, total: count, href: tracks.first?.href))
        while let done = read() {
            progress(AlignProgressReport(stage: .reading, done: done, total: count, href: nil))
        }
        group.wait()
        progress(AlignProgressReport(stage: .reading, done: count, total: count, href: nil))
        var decoded: [(href: String, features: SpeechFeatures)] = []
        for (index, result) in results.withLock({ $0 }).enumerated() {
            guard let result else { continue }
            decoded.append((tracks[index].href, try result.get()))
        }
        return decoded
    }

    /// One track's features, normalized; a track that does not decode or holds under a second is refused.
    static func features(of track: AlignmentAudio.Track) throws(CommandFailure) -> SpeechFeatures {
        var features: SpeechFeatures
        do {
            let decoder = try track.open()
            features = try SpeechFeatureReader.features(of: decoder)
        } catch let error as AudioDecoderError {
            throw CommandFailure(error, code: RAudioErrorCode.alignBadAudio.rawValue, message: "\(track.href): cannot be read as audio (\(error.message))")
        } catch {
            throw CommandFailure(.badData, code: RAudioErrorCode.alignBadAudio.rawValue, message: "\(track.href): cannot be read as audio (\(error))")
        }
        guard features.count >= 100 else {
            throw CommandFailure(.badData, code: RAudioErrorCode.alignBadAudio.rawValue, message: "\(track.href): holds no audio (\(String(format: "%.2f", features.seconds)) s)")
        }
        features.normalize()
        return features
    }

    /// Stage 4 (`ModelRefinement`) when the book's language has an acoustic model and its environment is there; a note
    /// on stderr when it is not (the warping's starts are kept).
    func refineWithModel(_ placements: inout [AlignmentCore.Placement?], sentences: [ReferenceSentence], mainLanguage: Language?,
                         tracks: [SpeechFeatures], audio: AlignmentAudio) {
        func base(_ language: Language?) -> String? { language.map { String($0.code.split(separator: "-").first ?? "").lowercased() } }
        guard let language = base(mainLanguage), ForcedAlignerRuntime.languages.contains(language) else { return }
        guard let runtime = ForcedAlignerRuntime.find() else {
            FileHandle.standardError.write(Data("raudio: note: sentence starts from the warping alone: no aligner environment (\(ForcedAlignerRuntime.installHint))\n".utf8))
            return
        }
        let aligner: ForcedAligner
        do {
            aligner = try ForcedAligner(language: language, runtime: runtime)
        } catch {
            FileHandle.standardError.write(Data("raudio: note: sentence starts from the warping alone: \(error)\n".utf8))
            return
        }
        defer { aligner.close() }
        let refinement = ModelRefinement(aligner: aligner, texts: sentences.map { $0.frames.isEmpty ? "" : $0.utterance.text },
                                         inLanguage: sentences.map { base($0.utterance.language ?? mainLanguage) == language },
                                         energies: tracks.map(\.energy), tracks: audio.tracks)
        let refined = refinement.refine(&placements)
        if ProcessInfo.processInfo.environment["RAUDIO_ALIGN_DEBUG"] != nil {
            FileHandle.standardError.write(Data("align: \(refined) of \(placements.compactMap { $0 }.count) sentence starts refined by the \(aligner.model) model\n".utf8))
        }
    }

    // MARK: Reference

    /// Synthesizes every utterance (eSpeak NG's workers in parallel, in blocks as a render does) into the book's
    /// reference features, normalized over the whole book.
    func synthesizeReference(publication: Publication, options: Options, progress: (AlignProgressReport) -> Void) throws(CommandFailure)
        -> (sentences: [ReferenceSentence], chapters: [ReferenceChapter], mainLanguage: Language?, reference: SpeechFeatures) {
        let settings = RenderSettings(voice: options.voice, configuration: options.configuration, fallbackLanguage: options.fallbackLanguage,
                                      engineIdentity: engineIdentity, synthesisWindow: 2)
        let renderer = BookRenderer(publication: publication, engine: engine, settings: settings, cache: nil,
                                    audioFolder: FileManager.default.temporaryDirectory)
        let (utterances, mainLanguage, _) = try renderer.plannedUtterances()
        let window = SynthesisWindow(engine: engine, cache: nil, engineIdentity: engineIdentity)
        let blockSize = settings.blockSize(forUtterances: utterances.count)
        let blockCount = (utterances.count + blockSize - 1) / blockSize
        let ahead = max(2, options.jobs)
        var requested = 0
        var sentences: [ReferenceSentence] = []
        var chapters: [ReferenceChapter] = []
        let extractor = SpeechFeatureExtractor()
        let target = PCMFormat(sampleRate: SpeechFeatures.sampleRate, channelCount: 1)
        /// Samples at 16 kHz pushed so far, and the frames they make.
        var samplesPushed = 0
        let titles = Self.documentTitles(publication)
        for (index, utterance) in utterances.enumerated() {
            while requested < blockCount, requested <= index / blockSize + ahead {
                window.requestBlock(renderer.blockItems(requested, of: utterances, blockSize: blockSize, mainLanguage: mainLanguage), number: requested)
                requested += 1
            }
            let href = Link(href: utterance.locator.href).hrefWithoutFragment
            if chapters.last?.href != href {
                let frame = samplesPushed / SpeechFeatures.hop
                chapters.append(ReferenceChapter(href: href, title: titles[href], sentences: [], frames: frame..<frame))
            }
            let startFrame = samplesPushed / SpeechFeatures.hop
            if !utterance.isMedia {
                switch window.take(index) {
                case .cached(let synthesized), .synthesized(let synthesized, _):
                    if synthesized.format.channelCount > 0, synthesized.format.sampleRate > 0, !synthesized.samples.isEmpty {
                        let samples: [Float]
                        do {
                            let resampler = try SoxrResampler(from: synthesized.format, to: target)
                            synthesized.samples.withUnsafeBufferPointer { resampler.push($0) }
                            resampler.flush()
                            var output = [Float](repeating: 0, count: resampler.availableFrames)
                            let frames = output.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
                            samples = Array(output.prefix(frames))
                        } catch {
                            window.cancel()
                            throw CommandFailure(.internalError, code: "resampling-failed", message: error.message, cause: error)
                        }
                        extractor.push(Self.trimmingSilence(samples))
                        samplesPushed += Self.trimmingSilence(samples).count
                    }
                case .failed(let error):
                    window.cancel()
                    throw BookRenderer.failure(error, utterance: utterance)
                }
            }
            let endFrame = samplesPushed / SpeechFeatures.hop
            sentences.append(ReferenceSentence(utterance: utterance, index: index, href: href, frames: startFrame..<endFrame))
            chapters[chapters.count - 1].sentences.append(sentences.count - 1)
            chapters[chapters.count - 1].frames = chapters[chapters.count - 1].frames.lowerBound..<endFrame
            if index % 16 == 0 || index == utterances.count - 1 {
                progress(AlignProgressReport(stage: .synthesizing, done: index + 1, total: utterances.count, href: href))
            }
        }
        var reference = extractor.finish()
        reference.normalize()
        return (sentences, chapters, mainLanguage, reference)
    }

    /// A synthesized sentence without the silence eSpeak NG puts at its ends (a narrator's pauses differ anyway).
    static func trimmingSilence(_ samples: [Float]) -> [Float] {
        let threshold: Float = 0.01
        guard let first = samples.firstIndex(where: { abs($0) > threshold }), let last = samples.lastIndex(where: { abs($0) > threshold }) else { return [] }
        let margin = 800  // 50 ms
        return Array(samples[max(0, first - margin)...min(samples.count - 1, last + margin)])
    }

    /// Each reading order document's title from the table of contents (its first entry).
    static func documentTitles(_ publication: Publication) -> [String: String] {
        var titles: [String: String] = [:]
        func visit(_ links: [Link]) {
            for link in links {
                if let title = link.title, titles[link.hrefWithoutFragment] == nil { titles[link.hrefWithoutFragment] = title }
                visit(link.children)
            }
        }
        visit(publication.tableOfContents)
        return titles
    }

    // MARK: Result

    func assemble(publication: Publication, mainLanguage: Language?, sentences: [ReferenceSentence], chapters: [ReferenceChapter],
                  tracks: [(href: String, seconds: Double)], result: AlignmentCore.Result, options: Options) -> BookAlignment {
        var out: [BookAlignment.Sentence] = []
        for (number, sentence) in sentences.enumerated() {
            let utterance = sentence.utterance
            let target = utterance.narrationTarget
            let placement = result.placements[number]
            out.append(BookAlignment.Sentence(
                utterance: sentence.index, href: sentence.href, cssSelector: utterance.locator.locations.cssSelector,
                progression: utterance.locator.locations.progression, textBefore: utterance.locator.text.before,
                highlight: utterance.locator.text.highlight, textAfter: utterance.locator.text.after,
                textRange: target.textRange.map { [$0.lowerBound, $0.upperBound] }, text: utterance.text,
                audioHref: placement.map { tracks[$0.track].href }, begin: placement.map { Self.milliseconds($0.begin) },
                end: placement.map { Self.milliseconds($0.end) }, confidence: Self.milliseconds(result.confidences[number])))
        }
        var coverage: [BookAlignment.ChapterCoverage] = []
        var unmatchedText: [BookAlignment.TextSpan] = []
        for chapter in chapters {
            let spoken = chapter.sentences.filter { !sentences[$0].frames.isEmpty }
            let placed = spoken.filter { out[$0].isPlaced }
            let firstPlaced = placed.first.map { out[$0] }
            let sameTrack = placed.map { out[$0] }.filter { $0.audioHref == firstPlaced?.audioHref }
            coverage.append(BookAlignment.ChapterCoverage(href: chapter.href, title: chapter.title, sentences: spoken.count, aligned: placed.count,
                                                          audioHref: firstPlaced?.audioHref, begin: sameTrack.compactMap(\.begin).min(),
                                                          end: sameTrack.compactMap(\.end).max()))
            // Runs of spoken sentences not placed.
            var run: [Int] = []
            func flush() {
                if let first = run.first, let last = run.last {
                    unmatchedText.append(BookAlignment.TextSpan(href: chapter.href, firstUtterance: sentences[first].index, lastUtterance: sentences[last].index,
                                                                reason: placed.isEmpty ? "not-narrated" : "not-found"))
                }
                run = []
            }
            for number in spoken {
                if out[number].isPlaced { flush() } else { run.append(number) }
            }
            flush()
        }
        let unmatchedAudio = result.unmatchedAudio
            .filter { $0.end - $0.begin >= options.minimumUnmatchedSeconds }
            .map { BookAlignment.AudioSpan(audioHref: tracks[$0.track].href, begin: Self.milliseconds($0.begin), end: Self.milliseconds($0.end)) }
        return BookAlignment(book: .init(title: publication.title, identifier: publication.metadata.identifier, language: mainLanguage?.code),
                             audio: tracks.map { .init(href: $0.href, duration: Self.milliseconds($0.seconds)) },
                             sentences: out, chapters: coverage, unmatchedAudio: unmatchedAudio, unmatchedText: unmatchedText)
    }

    /// Rounded to the millisecond: the same alignment gives the same bytes.
    static func milliseconds(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
