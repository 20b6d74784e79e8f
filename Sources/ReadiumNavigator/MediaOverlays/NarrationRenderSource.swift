// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The items of a `NarrationPlan` for an `AudioRenderer`: each media overlay `par` is its audio clip
/// (a `ClipDecoder` over a decoder shared by the clips of one file), and each item without usable
/// audio is synthesized with the TTS engine.
///
/// Called on the render thread (opening blocks on I/O, on synthesis, and on the
/// `NarrationPlanBuilder` until the item is planned: never on the cooperative pool). A missing or undecodable audio file, or a `par` without audio, falls back to
/// text-to-speech; a `clipEnd` past the end of its file is clamped. Each is reported once through
/// `onIssue` (called on the render thread; hop to an actor from there).
final class NarrationRenderSource: RenderSource, @unchecked Sendable {
    /// Thrown for an item that has neither usable audio nor text-to-speech.
    struct Unspeakable: Error {
        var message: String
    }

    let builder: NarrationPlanBuilder
    let publication: Publication
    let decoderFactory: any AudioDecoderFactory
    let engine: (any TTSEngine)?
    let fallbackLanguage: Language
    let onIssue: @Sendable (NavigatorIssue) -> Void
    /// Render-thread state (only the render thread opens items, hence `@unchecked Sendable`):
    /// decoders by audio href, hrefs that failed, items already warned about.
    private var state = State()

    private struct State {
        var decoders: [String: any AudioDecoder] = [:]
        var recent: [String] = []
        var failedHrefs: Set<String> = []
        var clamped: Set<Int> = []
    }

    init(builder: NarrationPlanBuilder, publication: Publication, decoderFactory: any AudioDecoderFactory, engine: (any TTSEngine)?,
         onIssue: @escaping @Sendable (NavigatorIssue) -> Void) {
        self.builder = builder
        self.publication = publication
        self.decoderFactory = decoderFactory
        self.engine = engine
        fallbackLanguage = publication.metadata.languages.first.map(Language.init(code:)) ?? Language(code: "en")
        self.onIssue = onIssue
    }

    /// A source over a plan already built.
    convenience init(plan: NarrationPlan, publication: Publication, decoderFactory: any AudioDecoderFactory, engine: (any TTSEngine)?,
                     onIssue: @escaping @Sendable (NavigatorIssue) -> Void) {
        self.init(builder: NarrationPlanBuilder(built: plan), publication: publication, decoderFactory: decoderFactory,
                  engine: engine, onIssue: onIssue)
    }

    /// The plan's item count once it is complete; nil before (an index past the end then throws).
    var itemCount: Int? {
        let plan = builder.plan
        return plan.isComplete ? plan.items.count : nil
    }

    /// The plan as built so far: the items up to any the renderer opened.
    private var plan: NarrationPlan { builder.plan }

    func openItem(at index: Int) throws -> any AudioDecoder {
        let plan = builder.waitForItem(index)
        guard plan.items.indices.contains(index) else { throw RenderSourceEnd() }
        let item = plan.items[index]
        if let clip = item.clip, let decoder = clipDecoder(clip, item: index) { return decoder }
        return try speak(item, at: index)
    }

    func issue(for error: any Error, item index: Int) -> RenderIssue {
        let href = plan.items.indices.contains(index) ? plan.items[index].locator.href : nil
        switch error {
        case let error as Unspeakable:
            return RenderIssue(item: index, code: .narrationSkipped, message: error.message, href: href, cause: error)
        case let error as TTSError:
            return RenderIssue(item: index, code: .init(error.code), message: "\(href ?? "item \(index)"): \(error.message)", href: href, cause: error)
        case let error as AudioDecoderError:
            return RenderIssue(item: index, code: .init(error.code), message: error.description, href: error.href, cause: error)
        default:
            return RenderIssue(item: index, code: .itemUnreadable, message: "\(href ?? "item \(index)"): \(error)", href: href, cause: error)
        }
    }

    /// The clip over the shared decoder of its file; nil (after a warning, once per file) when the
    /// file cannot be opened.
    private func clipDecoder(_ clip: MediaOverlayClip, item index: Int) -> (any AudioDecoder)? {
        guard let shared = sharedDecoder(for: clip.href, item: index) else { return nil }
        let format = shared.format
        let (end, isPastTheEnd) = Self.endFrame(ofClipEndingAt: clip.end, format: format, fileFrames: shared.frameCount)
        if isPastTheEnd, let fileEnd = shared.frameCount {
            if state.clamped.insert(index).inserted {
                onIssue(NavigatorIssue(
                    code: .clipClamped,
                    message: "\(clip.href): the clip ends at \(MediaFragment.format(clip.end ?? 0)) s, after the end of the file (\(MediaFragment.format(format.seconds(ofFrames: fileEnd))) s); played to the end of the file",
                    href: clip.href, fatal: false, locator: plan.items[index].locator))
            }
        }
        return ClipDecoder(shared: shared, beginFrame: format.frames(ofSeconds: clip.begin), endFrame: end)
    }

    /// The frame a clip ending at `clipEnd` seconds ends at in a file of `fileFrames` frames (nil: to the end),
    /// and whether the clip ends past the file by a whole frame or more (a warning). A clip end within a frame of
    /// the file's end (a clock value rounded to the millisecond, a decoder's count) is the file's end, silently.
    static func endFrame(ofClipEndingAt clipEnd: Double?, format: PCMFormat, fileFrames: Int64?) -> (frame: Int64?, isPastTheEnd: Bool) {
        guard let clipEnd else { return (nil, false) }
        let requested = format.frames(ofSeconds: clipEnd)
        guard let fileFrames, requested > fileFrames else { return (requested, false) }
        return (fileFrames, clipEnd * Double(format.sampleRate) - Double(fileFrames) >= 1)
    }

    private func sharedDecoder(for href: String, item index: Int) -> (any AudioDecoder)? {
        if state.failedHrefs.contains(href) { return nil }
        if let decoder = state.decoders[href] { return decoder }
        do {
            let resource = try publication.resource(at: href)
            let mediaType = MediaType.forFileExtension(String(href.split(separator: ".").last ?? ""))
            let decoder = try decoderFactory.makeDecoder(for: resource, mediaType: mediaType)
            state.decoders[href] = decoder
            state.recent.removeAll { $0 == href }
            state.recent.append(href)
            // Keep the decoders of the two files most recently used (the one playing, the next).
            while state.recent.count > 2 { state.decoders[state.recent.removeFirst()] = nil }
            return decoder
        } catch {
            state.failedHrefs.insert(href)
            let reason = (error as? ResourceError)?.message ?? (error as? AudioDecoderError)?.message ?? "\(error)"
            onIssue(NavigatorIssue(
                code: .narrationAudioMissing,
                message: "\(href): the narration's audio cannot be played (\(reason)); its text is read with text-to-speech",
                href: href, fatal: false, locator: plan.items[index].locator, cause: error))
            return nil
        }
    }

    /// The item's text synthesized (blocks the render thread until the PCM is ready).
    private func speak(_ item: NarrationItem, at index: Int) throws -> any AudioDecoder {
        guard let text = item.spokenText, text.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw Unspeakable(message: "\(item.locator.href): nothing to read aloud (no audio and no text)")
        }
        guard let engine else {
            throw Unspeakable(message: "\(item.locator.href): no audio, and text-to-speech is off (--no-tts)")
        }
        let job = SynthesisJob(utterance: SpeechUtterance(text: text, locator: item.locator, language: item.language, quoteMap: item.quoteMap, elementText: item.elementText))
        let utterance = TTSUtterance(text: text, voiceOrLanguage: .language(item.language ?? fallbackLanguage))
        engine.synthesize(utterance, cancellation: job.cancellation, onChunk: nil) { job.complete($0) }
        return try job.wait().get().makeDecoder()
    }
}
