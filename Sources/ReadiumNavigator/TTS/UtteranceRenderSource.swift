// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The utterances of a publication as items for an `AudioRenderer`: each item is one utterance's
/// synthesized PCM, opened as a `PCMBufferDecoder` when synthesis is done, else as a
/// `SynthesisStreamDecoder` that plays its chunks as they arrive. An utterance that is the page's own
/// audio (an `audio` or `video` element) is opened as a decoder of its media, in place.
///
/// Opening item `i` (on the render thread) plans the utterances up to `i + lookahead` and starts
/// synthesizing them on the engine's thread, so that the next utterances are ready while `i` plays
/// and no gap is added between them. It does not wait for `i`'s synthesis: the first utterance
/// after a start or a seek (or one synthesis has not caught up with) plays from its first chunk.
/// Its words come with the end of its synthesis: `wordsKnown(through:)` lets the synthesizer's
/// reports wait for them. `reset(planner:)` starts a new plan (a new start locator): everything
/// synthesized or queued for the old one is cancelled.
final class UtteranceRenderSource: RenderSource {
    /// How text and voices are chosen for synthesis; changed by the synthesizer's actor.
    struct Settings: Sendable {
        var voice: TTSVoice?
        /// The publication's main language: text in it is spoken by `voice`.
        var mainLanguage: Language?
        var fallbackLanguage: Language
        var speed: Double
        var pitch: Double
        var lookahead: Int
    }

    let engine: any TTSEngine
    /// Opens the embedded media utterances; nil: they are skipped with an issue.
    let media: EmbeddedMediaOpener?
    private let planner = Locked<UtterancePlanner?>(nil)
    private let jobs = Locked<[Int: SynthesisJob]>([:])
    /// The utterances opened for the renderer (so to be heard), with their words but not their PCM
    /// (or their job, while it synthesizes them), until the synthesizer has announced them
    /// (`forgetOpened(before:)`). Kept apart from `jobs`, which keeps only a few behind the render
    /// thread: the thread may run any number of utterances ahead of the reports the synthesizer's
    /// actor has handled (a null output, a loaded machine).
    private let opened = Locked<[Int: OpenedUtterance]>([:])
    /// The format of the last utterance opened: what a stream that fails before its first chunk
    /// stands in with.
    private let lastFormat = Locked(PCMFormat(sampleRate: 22_050, channelCount: 1))
    private let settingsStore: Locked<Settings>

    init(engine: any TTSEngine, settings: Settings, media: EmbeddedMediaOpener? = nil) {
        self.engine = engine
        self.media = media
        settingsStore = Locked(settings)
    }

    var itemCount: Int? { nil }

    var settings: Settings {
        get { settingsStore.withLock { $0 } }
        set { settingsStore.withLock { $0 = newValue } }
    }

    /// Starts a new plan; cancels every job of the previous one.
    func reset(planner newPlanner: UtterancePlanner) {
        planner.withLock { $0 = newPlanner }
        let cancelled = jobs.withLock { jobs in
            let all = Array(jobs.values)
            jobs.removeAll()
            return all
        }
        for job in cancelled { job.cancellation.cancel() }
        opened.withLock { $0.removeAll() }
    }

    /// Continues the current plan in a new index space from utterance `index`, synthesized again
    /// with the current settings from `textStart` of its text (nil: its start); returns the utterance's
    /// new index, nil when the plan has no utterance `index`.
    ///
    /// Every utterance `i` becomes `i + newBase - base`, so the renderer opens them anew (it keeps
    /// the decoders of the old indices); every job of the old indices is cancelled (the lookahead
    /// was synthesized with the old settings). The resumed utterance's PCM starts at `textStart`,
    /// its word ranges still index the whole text. Its first opening spends it: opening it again
    /// (after `previous()` and `next()`) synthesizes the whole utterance.
    func resume(item index: Int, from textStart: String.Index?, newBase: Int) -> Int? {
        let moved = planner.withLock { planner -> (Int, SpeechUtterance)? in
            guard let planner, let utterance = planner.utterance(at: index) else { return nil }
            let delta = newBase - planner.base
            planner.rebase(by: delta)
            return (index + delta, utterance)
        }
        let cancelled = jobs.withLock { jobs in
            let all = Array(jobs.values)
            jobs.removeAll()
            return all
        }
        for job in cancelled { job.cancellation.cancel() }
        opened.withLock { $0.removeAll() }
        guard let (newIndex, utterance) = moved else { return nil }
        let job = SynthesisJob(utterance: utterance, textStart: textStart)
        jobs.withLock { $0[newIndex] = job }
        start(job, settings: settings)
        return newIndex
    }

    /// Opens item `index`: its PCM when synthesized, else a stream of it that plays what has arrived
    /// and waits (in its reads) for the rest. Never waits for synthesis here.
    func openItem(at index: Int) throws -> any AudioDecoder {
        guard let (utterance, job) = startJobs(from: index) else { throw RenderSourceEnd() }
        guard let job else { return try openMedia(of: utterance, at: index) }
        guard let outcome = job.attachReaderUnlessDone() else {
            let href = "tts:\(settings.voice?.identifier ?? job.utterance.locator.href)"
            let decoder = SynthesisStreamDecoder(job: job, href: href, fallbackFormat: lastFormat.withLock { $0 })
            opened.withLock { $0[index] = OpenedUtterance(utterance: job.utterance, words: nil, job: job) }
            // A resumed utterance is heard once from its middle: the stream keeps the samples.
            if job.textStart != nil { job.dropSamples() }
            return decoder
        }
        switch outcome {
        case .success(let synthesized):
            let decoder = synthesized.makeDecoder()
            let words = synthesized.droppingSamples()
            opened.withLock { $0[index] = OpenedUtterance(utterance: job.utterance, words: words, job: nil) }
            lastFormat.withLock { $0 = synthesized.format }
            // A resumed utterance is heard once from its middle; the decoder keeps the samples.
            if job.textStart != nil { job.dropSamples() }
            return decoder
        case .failure(let error): throw error
        }
    }

    /// A decoder of the media of `utterance`, an embedded `audio` or `video` element; the utterance is
    /// opened with no words.
    private func openMedia(of utterance: SpeechUtterance, at index: Int) throws -> any AudioDecoder {
        guard let media else {
            throw AudioDecoderError(.trackUnsupported, subject: utterance.media.first?.href, message: "embedded media is not played here")
        }
        let (decoder, source) = try media.open(utterance.media)
        let heard = SynthesizedUtterance(text: "", voice: Self.mediaVoice, format: decoder.format, samples: [], wordBoundaries: [])
        opened.withLock { $0[index] = OpenedUtterance(utterance: utterance, words: heard, job: nil, mediaSource: source) }
        return decoder
    }

    /// What a media utterance is "spoken" with in its `SynthesizedUtterance` (which has no words): never
    /// announced, as the synthesizer reports media with its source instead of a voice.
    private static let mediaVoice = TTSVoice(identifier: "media", name: "the book's own audio", language: Language(code: "und"))

    /// The source played for the media utterance opened at `index`; nil for text, or once forgotten.
    func playedMediaSource(at index: Int) -> Link? {
        opened.withLock { $0[index] }?.mediaSource
    }

    func issue(for error: any Error, item index: Int) -> RenderIssue {
        if let utterance = plannedUtterance(at: index), utterance.isMedia {
            let sources = utterance.media.map(\.href).joined(separator: ", ")
            let reason = (error as? AudioDecoderError)?.message ?? "\(error)"
            return RenderIssue(item: index, code: .mediaSkipped,
                               message: "\(utterance.locator.href): its \(utterance.role.name) (\(sources)) cannot be played, skipped (\(reason))",
                               href: utterance.locator.href, cause: error)
        }
        var error = error
        // A stream broken part-way: the synthesis error behind it (a cancellation is no failure).
        if error is AudioDecoderError, case .failure(let failure)? = opened.withLock({ $0[index] })?.job?.outcome {
            error = failure
        }
        let href = plannedUtterance(at: index)?.locator.href
        if let error = error as? TTSError {
            return RenderIssue(item: index, code: .init(error.code), message: "\(href ?? "utterance"): \(error.message)", href: href, cause: error)
        }
        return RenderIssue(item: index, code: .init(TTSError.Code.synthesisFailed), message: "\(href ?? "utterance"): \(error)", href: href, cause: error)
    }

    /// The utterance at `index` and its PCM when synthesis is done; never blocks on synthesis.
    func synthesized(at index: Int) -> (SpeechUtterance, SynthesizedUtterance)? {
        guard let job = jobs.withLock({ $0[index] }), case .success(let pcm)? = job.outcome else { return nil }
        return (job.utterance, pcm)
    }

    /// The utterance opened at `index` and its words (no PCM), until `forgetOpened(before:)` passes it;
    /// however far the render thread has gone since. Nil while it is still being synthesized (see
    /// `wordsKnown(through:)`) or when its synthesis failed part-way. Any thread.
    func openedUtterance(at index: Int) -> (SpeechUtterance, SynthesizedUtterance)? {
        opened.withLock { $0[index] }?.heard
    }

    /// The utterances opened after `first` and before `end`, in order: what was heard between two
    /// heard positions. Any thread.
    func openedUtterances(after first: Int, before end: Int) -> [(Int, SpeechUtterance, SynthesizedUtterance)] {
        guard end > first + 1 else { return [] }
        let between = opened.withLock { opened in
            opened.filter { $0.key > first && $0.key < end }.sorted { $0.key < $1.key }
        }
        return between.compactMap { item, entry in entry.heard.map { (item, $0.0, $0.1) } }
    }

    /// Suspends until every utterance opened up to `index` has its words (its synthesis ended, or
    /// was cancelled by a new plan): a heard position there can then be reported word by word.
    /// Blocks no thread. Any task.
    func wordsKnown(through index: Int) async {
        let synthesizing = opened.withLock { opened in
            opened.filter { $0.key <= index }.compactMap { $0.value.job }
        }
        for job in synthesizing where !job.isDone { await job.done() }
    }

    /// Forgets the opened utterances before `index` (the synthesizer announced `index`). Any thread.
    func forgetOpened(before index: Int) {
        opened.withLock { opened in
            for key in opened.keys where key < index { opened[key] = nil }
        }
    }

    /// The planned utterance at `index`, reading content if needed (blocks while a resource is parsed).
    func plannedUtterance(at index: Int) -> SpeechUtterance? {
        planner.withLock { $0?.utterance(at: index) }
    }

    /// Content errors met so far by the current plan.
    var contentErrors: [ContentError] { planner.withLock { $0?.errors ?? [] } }

    /// Plans and starts jobs for `index` and the lookahead after it (media utterances have none);
    /// returns `index`'s utterance and job.
    private func startJobs(from index: Int) -> (SpeechUtterance, SynthesisJob?)? {
        let settings = self.settings
        var planned: [(Int, SpeechUtterance)] = []
        planner.withLock { planner in
            guard let planner else { return }
            for offset in 0...max(settings.lookahead, 0) {
                guard let utterance = planner.utterance(at: index + offset) else { break }
                planned.append((index + offset, utterance))
            }
            planner.forget(awayFrom: index)
        }
        guard let (_, utterance) = planned.first else { return nil }
        var toStart: [(Int, SynthesisJob)] = []
        let job = jobs.withLock { jobs -> SynthesisJob? in
            for (itemIndex, utterance) in planned where !utterance.isMedia && jobs[itemIndex].map({ $0.isSpent }) ?? true {
                let job = SynthesisJob(utterance: utterance)
                jobs[itemIndex] = job
                toStart.append((itemIndex, job))
            }
            // Keep a few behind, without their PCM (their decoders were opened), for late position
            // reports: the output may still be playing them. Drop the rest.
            for (key, behind) in jobs where key < index {
                if key < index - 4 { jobs[key] = nil } else { behind.dropSamples() }
            }
            return jobs[index]
        }
        for (_, job) in toStart { start(job, settings: settings) }
        return (utterance, job)
    }

    /// Hands `job` to the engine (which synthesizes on its own thread and completes the job there).
    private func start(_ job: SynthesisJob, settings: Settings) {
        var request = ttsUtterance(for: job.utterance, settings: settings)
        request.text = job.spokenText
        request.phonemes = request.phonemes.sliced(to: job.spokenTextOffset..<job.utterance.text.utf8.count)
        engine.synthesize(request, cancellation: job.cancellation, onChunk: { job.receive($0) }) { job.complete($0) }
    }

    /// The voice rule (`TTSUtterance(speaking:voice:...)`) with these settings.
    func ttsUtterance(for utterance: SpeechUtterance, settings: Settings) -> TTSUtterance {
        TTSUtterance(speaking: utterance, voice: settings.voice, mainLanguage: settings.mainLanguage, fallbackLanguage: settings.fallbackLanguage,
                     rate: settings.speed, pitch: settings.pitch)
    }
}
