// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// Reads a publication into audio files (`raudio render`): its utterances as `PublicationSpeechSynthesizer`
/// speaks them (`SpeechUtterances`), synthesized ahead in parallel (`SynthesisWindow`: as many as the engine
/// has workers), encoded in reading order on the render thread while the next ones are synthesized, one audio
/// file per content document with its clips (`NarratedDocument`), and optionally the whole narration as an
/// M4B with the book's chapters.
///
/// Deterministic: the same book, settings and engine give the same files; with a cache, each utterance's audio
/// is stored as it is encoded, so a render killed and started again speaks only what it had not. Clip times
/// come from frame counts (the audio files' decoded lengths are those frames). Embedded audio and video are
/// decoded in place (one clip each), or left out with a warning when they cannot be.
public final class BookRenderer: Sendable {
    public let publication: Publication
    public let engine: any TTSEngine
    public let settings: RenderSettings
    public let cache: UtteranceAudioCache?
    /// Where the documents' audio files are written.
    public let audioFolder: URL

    /// The whole narration as an M4B at `path`, with `tags` and the chapters.
    public struct M4BRequest: Sendable {
        public var path: String
        public var bitRate: Int

        public init(path: String, bitRate: Int = 64_000) {
            self.path = path
            self.bitRate = bitRate
        }
    }

    public init(publication: Publication, engine: any TTSEngine, settings: RenderSettings, cache: UtteranceAudioCache?, audioFolder: URL) {
        self.publication = publication
        self.engine = engine
        self.settings = settings
        self.cache = cache
        self.audioFolder = audioFolder
    }

    /// Renders the book on a thread of its own (`raudio.render`); `progress` is called there after each
    /// utterance. Without `writesDocuments` (an M4B alone), the documents' audio files are not written (the
    /// documents and clips are still returned, their `audioFile` naming no file). Throws `CommandFailure`: no text to speak (65), an unknown voice (64), a file that cannot be
    /// created (73) or written (74), a synthesis that failed (70).
    public func render(tags: M4BWriter.Tags, m4b: M4BRequest? = nil, writesDocuments: Bool = true,
                       progress: @escaping @Sendable (RenderProgressReport) -> Void = { _ in }) async throws(CommandFailure) -> RenderedBook {
        let result: Result<RenderedBook, CommandFailure> = await BlockingWork.run(named: "raudio.render") { [self] in
            do throws(CommandFailure) {
                return .success(try renderBlocking(tags: tags, m4b: m4b, writesDocuments: writesDocuments, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The utterances of the book, read to the end (parsing every content document). Throws when there is
    /// no text to speak.
    func plannedUtterances() throws(CommandFailure) -> (utterances: [SpeechUtterance], mainLanguage: Language?, errors: [ContentError]) {
        let sequence: SpeechUtterances
        do {
            sequence = try SpeechUtterances(publication: publication, configuration: settings.configuration)
        } catch {
            throw CommandFailure(.badData, code: "no-text", message: "\(publication.title): has no text to speak (\(error.message))", cause: error)
        }
        var iterator = sequence.makeIterator()
        var utterances: [SpeechUtterance] = []
        while let utterance = iterator.next() { utterances.append(utterance) }
        guard utterances.contains(where: { !$0.isMedia && !$0.text.isEmpty }) else {
            throw CommandFailure(.badData, code: "no-text", message: "\(publication.title): has no text to speak")
        }
        return (utterances, sequence.mainLanguage, iterator.errors)
    }

    private func renderBlocking(tags: M4BWriter.Tags, m4b: M4BRequest?, writesDocuments: Bool, progress: (RenderProgressReport) -> Void) throws(CommandFailure) -> RenderedBook {
        let (utterances, mainLanguage, contentErrors) = try plannedUtterances()
        do {
            try FileManager.default.createDirectory(at: audioFolder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(AudioSinkError(.cannotCreate, subject: audioFolder.path, message: "cannot make the folder: \(error.localizedDescription)"))
        }
        var assembly = NarrationAssembly(settings: settings, audioFolder: audioFolder, tags: tags, m4b: m4b, writesDocuments: writesDocuments,
                                         readingOrder: publication.readingOrder.map(\.hrefWithoutFragment))
        assembly.warnings = contentErrors.map { RenderWarning(code: $0.codeName, message: $0.description, href: $0.subject) }
        let window = SynthesisWindow(engine: engine, cache: cache, engineIdentity: settings.engineIdentity)
        let media = EmbeddedMediaOpener(publication: publication, decoderFactory: RAudioDecoderFactory())
        let blockSize = settings.blockSize(forUtterances: utterances.count)
        let blockCount = (utterances.count + blockSize - 1) / blockSize
        var requestedBlocks = 0
        // Blocks handed to the engine ahead of the one being encoded: one per worker keeps them all busy.
        func requestAhead(of index: Int) {
            while requestedBlocks < blockCount, requestedBlocks <= index / blockSize + settings.synthesisWindow {
                window.requestBlock(blockItems(requestedBlocks, of: utterances, blockSize: blockSize, mainLanguage: mainLanguage),
                                    number: requestedBlocks)
                requestedBlocks += 1
            }
        }
        do throws(CommandFailure) {
            for (index, utterance) in utterances.enumerated() {
                requestAhead(of: index)
                if utterance.isMedia {
                    try assembly.appendMedia(utterance, opener: media)
                } else {
                    let synthesized: SynthesizedUtterance
                    switch window.take(index) {
                    case .cached(let cached):
                        synthesized = cached
                        assembly.counts.cacheHits += 1
                    case .synthesized(let fresh, let key):
                        synthesized = fresh
                        assembly.counts.synthesized += 1
                        if let cache {
                            do { try cache.store(fresh, for: key) } catch { throw CommandFailure(error) }
                        }
                    case .failed(let error):
                        throw Self.failure(error, utterance: utterance)
                    }
                    try assembly.append(synthesized, of: utterance)
                }
                assembly.counts.utterances += 1
                progress(RenderProgressReport(utterancesDone: index + 1, utteranceCount: utterances.count, audioSeconds: assembly.bookSeconds,
                                              counts: assembly.counts, href: utterance.locator.href))
            }
            let chapterMap = ChapterMap(publication: publication).placingFragments(of: publication)
            return try assembly.finish(chapters: chapterMap)
        } catch {
            window.cancel()
            assembly.cancel()
            throw error
        }
    }

    /// Block `number` of `utterances` (`blockSize` of them), as the engine is asked for it: each utterance's
    /// request by the voice rule, media left out.
    func blockItems(_ number: Int, of utterances: [SpeechUtterance], blockSize: Int, mainLanguage: Language?) -> [SynthesisWindow.Item] {
        let range = (number * blockSize)..<min(utterances.count, (number + 1) * blockSize)
        return range.compactMap { itemIndex -> SynthesisWindow.Item? in
            let utterance = utterances[itemIndex]
            guard !utterance.isMedia else { return nil }
            let request = TTSUtterance(speaking: utterance, voice: settings.voice, mainLanguage: mainLanguage,
                                       fallbackLanguage: settings.fallbackLanguage, rate: settings.rate, pitch: settings.pitch)
            return SynthesisWindow.Item(index: itemIndex, request: request, voice: voice(of: request))
        }
    }

    /// The voice a request names, or the engine's for its language: what a cached utterance was spoken with.
    private func voice(of request: TTSUtterance) -> TTSVoice {
        switch request.voiceOrLanguage {
        case .voice(let voice): voice
        case .language(let language): engine.voice(forLanguage: language).voice
        }
    }

    static func failure(_ error: TTSError, utterance: SpeechUtterance) -> CommandFailure {
        let message = "\(utterance.locator.href): cannot speak \"\(utterance.text.prefix(60))\": \(error.message)"
        if error.code == .ttsUnknownVoice { return CommandFailure(.usage, code: "unknown-voice", message: message, cause: error) }
        return CommandFailure(ExitStatus(for: error), code: error.codeName, message: message, cause: error)
    }
}
