// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// One run of `raudio render`: opens the EPUB, makes the engine as `raudio speak` does (eSpeak NG always in
/// worker processes), renders with `BookRenderer` and writes each output; events as JSON lines on stdout when
/// it is not a terminal, a progress bar on stderr when that is one.
struct BookRenderRun {
    let command: RenderCommand
    private let started = Date()

    init(command: RenderCommand) {
        self.command = command
    }

    /// Throws `CommandFailure` (after its `error` event): the exit status of the documented table.
    func run() async throws(CommandFailure) {
        let printsJSON = isatty(STDOUT_FILENO) != 1
        let drawsBar = isatty(STDERR_FILENO) == 1
        do {
            try await render(printsJSON: printsJSON, drawsBar: drawsBar)
        } catch {
            if drawsBar { StandardStreams.printError("\r\u{1B}[K", newline: false) }
            if printsJSON { emit(.error(error)) }
            throw error
        }
    }

    private func emit(_ event: RenderEvent) {
        try? StandardStreams.printLine(event.json.serialized())
    }

    private func render(printsJSON: Bool, drawsBar: Bool) async throws(CommandFailure) {
        let outputs = command.requestedOutputs
        for output in outputs {
            try Self.checkWritable(output.path)
            if let expected = Self.unexpectedExtension(of: output) {
                StandardStreams.printError("raudio: warning: --to \(output.format.rawValue) \(output.path): written as \(output.format.rawValue) all the same; "
                                           + "players look for \(expected)")
            }
        }
        let piperLoad = SpeechEngineSetup.startLoading(voice: command.voice, options: command.engineOptions, pace: .rendering)
        // Never unlocked: a render would write an LCP book out in clear.
        let publication = try PublicationLoading.open(path: command.path, checksContentDocuments: false, opensLocked: true)
        PublicationLoading.reportWarnings(of: publication)
        if publication.protection != nil || publication.contentProtectionRights != nil {
            throw CommandFailure(
                .badData, code: "lcp-protected",
                message: "\(command.path): is protected by LCP; raudio render does not write a protected book out in clear (play or speak it instead)")
        }
        guard PublicationSpeechSynthesizer.canSpeak(publication: publication) else {
            throw CommandFailure(.badData, code: "no-text", message: "\(command.path): has no text to speak (raudio render reads EPUBs, HTML pages and text files)")
        }
        if Href.isRemote(command.path), let epub = outputs.first(where: { $0.format == .epub3 }) {
            // The book is rewritten from its file: a remote one would fail only after the whole synthesis.
            throw CommandFailure(.usage, code: "usage", message: "--to epub3 \(epub.path): \(command.path) is a remote book; the read-aloud EPUB is made "
                                 + "from the book's file: download it (curl -LO URL) and render the file (--to m4b and audiobook read it in place)")
        }
        if !publication.mediaType.matches(.epub), let epub = outputs.first(where: { $0.format == .epub3 }) {
            throw CommandFailure(.usage, code: "usage", message: "--to epub3 \(epub.path): \(command.path) is not an EPUB (\(publication.mediaType)), "
                                 + "and only an EPUB gets Media Overlays; render it with --to m4b or --to audiobook")
        }
        let loaded = VoicePresets.load()
        for warning in loaded.warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        let engine = try SpeechEngineSetup.make(presets: loaded.presets, presetsFolder: loaded.folder, options: command.engineOptions,
                                                voice: command.voice, bookLanguage: publication.metadata.language.map(Language.init(code:)),
                                                jobs: command.jobs, inWorkerProcesses: true, started: piperLoad, pace: .rendering)
        defer { SpeechEngineSetup.stopWorkers(of: engine) }
        var voice: TTSVoice?
        if let name = command.voice {
            guard let found = VoiceResolver.voice(for: name, in: engine) else {
                throw CommandFailure(.usage, code: "unknown-voice", message: "--voice \(name): \(VoiceResolver.unknownMessage(name, in: engine))")
            }
            voice = found
        }
        let configuration = SpeechSynthesizerConfiguration(defaultLanguage: command.language.map(Language.init(code:)), voiceIdentifier: voice?.identifier,
                                                           skippedRoles: command.skippedRoles)
        let settings = RenderSettings(voice: voice, configuration: configuration, rate: command.speed, pitch: command.pitch,
                                      granularity: NarrationGranularity(rawValue: command.granularity) ?? .sentence,
                                      codec: AudioFileCodec(rawValue: command.audio) ?? .mp3,
                                      engineIdentity: Self.engineIdentity(engine, presetsFolder: loaded.folder), synthesisWindow: command.jobs)
        let cache = UtteranceAudioCache(folder: command.cache.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
                                        ?? UtteranceAudioCache.defaultFolder())
        let cacheUse = await BlockingWork.run(named: "raudio.cache-lock") { cache.beginUse() }
        defer { cacheUse.end() }
        Self.removeAbandonedAudioFolders()
        let audioFolder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-render-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: audioFolder) }
        let renderer = BookRenderer(publication: publication, engine: engine, settings: settings, cache: cache, audioFolder: audioFolder)
        let narrator = SpeakSession.mainVoice(chosen: voice, configuration: configuration, engine: engine, publication: publication).narratorName
        let cover = publication.manifest.coverLink.flatMap { try? publication.resource(at: $0.href).read(maximumSize: 16 << 20) }
        let tags = M4BWriter.Tags(title: publication.title, authors: publication.metadata.authors.map { $0.name.string() }, narrators: [narrator],
                                  cover: cover)
        if let shard = command.shard.flatMap(RenderShard.init(parsing:)), let output = outputs.first {
            try await renderShare(shard, renderer: renderer, cache: cache, use: cacheUse, output: output, title: publication.title, printsJSON: printsJSON, drawsBar: drawsBar)
            return
        }
        if !command.merge.isEmpty {
            var parts: [RenderPart] = []
            for path in command.merge { parts.append(try RenderPart.unpack(path, into: cache)) }
            try renderer.checkMerged(parts)
        }
        let m4b = outputs.first { $0.format == .m4b }
        if printsJSON { emit(.started(title: publication.title, outputs: outputs)) }
        let progress = RenderProgressPrinter(printsJSON: printsJSON, drawsBar: drawsBar, started: started)
        let book = try await renderer.render(tags: tags, m4b: m4b.map { BookRenderer.M4BRequest(path: $0.path) },
                                             writesDocuments: outputs.contains { $0.format != .m4b }) { progress.report($0) }
        if drawsBar { StandardStreams.printError("\r\u{1B}[K", newline: false) }
        for warning in book.warnings {
            if printsJSON { emit(.warning(warning)) } else { StandardStreams.printError("raudio: warning: \(warning.message)") }
        }
        for output in outputs {
            switch output.format {
            case .m4b:
                break
            case .audiobook:
                do {
                    try AudiobookPackageWriter.write(book, publication: publication, narrator: narrator, to: output.path)
                } catch {
                    throw CommandFailure(error)
                }
            case .epub3:
                let source = URL(fileURLWithPath: command.path), target = URL(fileURLWithPath: output.path)
                let written: Result<Void, EPUBWriteError> = await BlockingWork.run(named: "raudio.epub-writer") {
                    Result { () throws(EPUBWriteError) in
                        try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init(narrators: [narrator])).write(book.documents, to: target)
                    }
                }
                do { try written.get() } catch { throw CommandFailure(error) }
            case .part:
                break  // refused without --shard (RenderCommand.validate)
            }
            if printsJSON { emit(.output(output, duration: book.duration)) }
        }
        await trim(cache, endingUse: cacheUse)
        let wall = Date().timeIntervalSince(started)
        if printsJSON {
            emit(.done(counts: book.counts, audioSeconds: book.duration, wallSeconds: wall))
        }
        if drawsBar || !printsJSON {
            let written = outputs.map(\.path).joined(separator: ", ")
            StandardStreams.printError("wrote \(written): \(TerminalScreen.time(book.duration)) of audio in \(TerminalScreen.time(wall))"
                                       + " (\(book.counts.synthesized) utterances synthesized, \(book.counts.cacheHits) from the cache)")
        }
    }

    /// Brings the speech cache under `--cache-size` once the outputs are written (never before: a render stopped
    /// part-way keeps all it made), and says on stderr what went. Ends this render's `use` of the cache first; while
    /// another render uses it, nothing is removed (the last render to end trims).
    private func trim(_ cache: UtteranceAudioCache, endingUse use: UtteranceAudioCache.Use) async {
        use.end()
        guard let limit = command.cacheLimit ?? nil else { return }
        let outcome = await BlockingWork.run(named: "raudio.cache-trim") { Result { () throws(AudioSinkError) in try cache.trim(toBytes: limit) } }
        let trim: UtteranceAudioCache.Trim
        switch outcome {
        case .failure(let error):
            StandardStreams.printError("raudio: warning: the speech cache is not kept under --cache-size \(command.cacheSizeOrDefault): \(error.description)")
            return
        case .success(nil):
            // Another render uses the cache (shares side by side): one that ends alone trims. Said only when asked for.
            if command.cacheSize != nil {
                StandardStreams.printError("raudio: the speech cache \(cache.folder.path) is in use by another render: not trimmed this time")
            }
            return
        case .success(let done?):
            trim = done
        }
        guard trim.removedFiles > 0 else { return }
        let mebibytes = { (bytes: Int64) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        StandardStreams.printError("raudio: the speech cache \(cache.folder.path) is kept under --cache-size \(command.cacheSizeOrDefault): "
                                   + "\(trim.removedFiles) files used longest ago removed (\(mebibytes(trim.removedBytes))), \(mebibytes(trim.keptBytes)) kept")
    }

    /// `--shard I/N --to part FILE`: synthesizes the share into the cache and writes its part file.
    private func renderShare(_ shard: RenderShard, renderer: BookRenderer, cache: UtteranceAudioCache, use: UtteranceAudioCache.Use, output: RenderOutput, title: String,
                             printsJSON: Bool, drawsBar: Bool) async throws(CommandFailure) {
        if printsJSON { emit(.started(title: title, outputs: [output])) }
        let progress = RenderProgressPrinter(printsJSON: printsJSON, drawsBar: drawsBar, started: started)
        let share = try await renderer.renderShare(shard) { progress.report($0) }
        if drawsBar { StandardStreams.printError("\r\u{1B}[K", newline: false) }
        do {
            try share.part.write(from: cache, to: output.path)
        } catch {
            throw CommandFailure(error)
        }
        await trim(cache, endingUse: use)
        let wall = Date().timeIntervalSince(started)
        if printsJSON {
            emit(.output(output, duration: share.audioSeconds))
            emit(.done(counts: share.counts, audioSeconds: share.audioSeconds, wallSeconds: wall))
        }
        if drawsBar || !printsJSON {
            StandardStreams.printError("wrote \(output.path): share \(shard) (\(share.part.files.count) utterances, \(TerminalScreen.time(share.audioSeconds)) of audio) in \(TerminalScreen.time(wall))"
                                       + " (\(share.counts.synthesized) synthesized, \(share.counts.cacheHits) from the cache)")
        }
    }

    /// The extensions a file of `output`'s format has, when its path has none of them (`--to epub3 book.m4b`, most
    /// likely a slip: reading systems and players go by the extension); nil when it has one.
    static func unexpectedExtension(of output: RenderOutput) -> String? {
        let expected: [String] = switch output.format {
        case .epub3: ["epub"]
        case .m4b: ["m4b", "m4a", "mp4"]
        case .audiobook: ["audiobook", "zip"]
        case .part: ["rpart"]
        }
        let actual = URL(fileURLWithPath: output.path).pathExtension.lowercased()
        return expected.contains(actual) ? nil : expected.map { ".\($0)" }.joined(separator: " or ")
    }

    /// Fails with 73 when the output's folder does not exist or cannot be written, before any synthesis.
    /// Removes what a killed render left beside it (its temporary files, named by a process that is gone).
    static func checkWritable(_ path: String) throws(CommandFailure) {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure(AudioSinkError(.cannotCreate, subject: path, message: "its folder \(folder) does not exist"))
        }
        guard access(folder, W_OK) == 0 else {
            throw CommandFailure(AudioSinkError(.cannotCreate, subject: path, message: "its folder \(folder) is not writable",
                                                underlyingStatus: errno))
        }
        let prefix = ".\(url.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dot = rest.firstIndex(of: "."), let pid = Int32(rest[..<dot]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder + "/" + name)
        }
    }

    /// Removes the documents' audio folders that killed renders left in the temporary folder
    /// (`raudio-render-PID-UUID`, its process gone).
    static func removeAbandonedAudioFolders() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("raudio-render-") {
            let parts = name.dropFirst("raudio-render-".count).split(separator: "-", maxSplits: 1)
            guard parts.count == 2, let pid = Int32(parts[0]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// The engine and its version for the cache's keys: eSpeak NG's library version and the voice presets
    /// (their files' bytes), a Piper voice's model file (its name and size).
    static func engineIdentity(_ engine: any TTSEngine, presetsFolder: URL?) -> String {
        var presets = "built-in"
        if let presetsFolder {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: presetsFolder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            var hash = FNV1a64()
            for name in names {
                hash.combine(name.utf8)
                hash.combine(FileManager.default.contents(atPath: presetsFolder.appendingPathComponent(name).path) ?? Data())
            }
            presets = String(hash.value, radix: 16)
        }
        var identity = "espeak-ng \(ESpeakEngine.libraryVersion) presets \(presets)"
        if let router = engine as? SpeechEngineRouter, let piper = router.neural as? PiperEngine {
            let size = (try? FileManager.default.attributesOfItem(atPath: piper.voiceFile.model.path)[.size] as? Int) ?? 0
            identity += "; piper \(piper.voiceFile.identifier) \(size)"
        }
        return identity
    }
}

