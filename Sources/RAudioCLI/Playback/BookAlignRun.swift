// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// One run of `raudio align`: opens the EPUB and the narration, makes eSpeak NG's worker processes, aligns with
/// `BookAligner` and writes the EPUB (through render's `MediaOverlayEPUBWriter`) and the alignment's JSON; events as
/// JSON lines on stdout when it is not a terminal, a progress bar and the coverage on stderr otherwise.
struct BookAlignRun {
    let command: AlignCommand
    /// Whether JSON events go to stdout when it is not a terminal (`raudio align`); `raudio play --text` aligns
    /// without them, its stdout carrying only play's events.
    var printsEvents = true
    /// Whether the audio is linked (`LinkedAudio`) whenever every track is a file on disk, copied in otherwise
    /// (`raudio play --text`'s cache: no copy of the audiobook); `--link-audio` links or refuses.
    var linksAudioWhenFiles = false
    private let started = Date()

    init(command: AlignCommand) {
        self.command = command
    }

    func run() async throws(CommandFailure) {
        let printsJSON = printsEvents && isatty(STDOUT_FILENO) != 1
        let drawsBar = isatty(STDERR_FILENO) == 1
        do {
            try await align(printsJSON: printsJSON, drawsBar: drawsBar)
        } catch {
            if drawsBar { StandardStreams.printError("\r\u{1B}[K", newline: false) }
            if printsJSON { emit(.error(error)) }
            throw error
        }
    }

    private func emit(_ event: AlignEvent) {
        try? StandardStreams.printLine(event.json.serialized())
    }

    private func align(printsJSON: Bool, drawsBar: Bool) async throws(CommandFailure) {
        for path in [command.epubOutput, command.alignment].compactMap({ $0 }) { try BookRenderRun.checkWritable(path) }
        let publication = try PublicationLoading.open(path: command.book, checksContentDocuments: false)
        PublicationLoading.reportWarnings(of: publication)
        if publication.protection != nil { throw CommandFailure.protected(publication, path: command.book) }
        guard publication.mediaType.matches(.epub), PublicationSpeechSynthesizer.canSpeak(publication: publication) else {
            throw CommandFailure(.badData, code: "no-text", message: "\(command.book): is not an EPUB with text (raudio align reads the text of an EPUB)")
        }
        let audio = try Self.openAudio(command.audio)
        let linksAudio = command.epubOutput != nil && (command.linkAudio || (linksAudioWhenFiles && audio.tracks.allSatisfy { $0.file != nil }))
        if command.linkAudio, let packed = audio.tracks.first(where: { $0.file == nil }) {
            throw CommandFailure.usage("--link-audio: \(packed.href) is not a file of its own (inside a package, or remote); link needs audio files on disk: unpack them, or leave out --link-audio to copy the audio in")
        }
        let loaded = VoicePresets.load()
        // eSpeak NG alone, in worker processes (a fresh one per block of sentences, as a render).
        let engine: any TTSEngine
        do {
            engine = try ESpeakWorkerPool(presets: loaded.presets, presetsFolder: loaded.folder, workerCount: command.jobs)
        } catch {
            throw CommandFailure(error, message: error.message)
        }
        defer { SpeechEngineSetup.stopWorkers(of: engine) }
        let configuration = SpeechSynthesizerConfiguration(defaultLanguage: command.language.map(Language.init(code:)), skippedRoles: command.skippedRoles)
        let options = BookAligner.Options(configuration: configuration, minimumConfidence: command.minimumConfidence, jobs: command.jobs,
                                          method: BookAligner.Options.Method(rawValue: command.method) ?? .model)
        let aligner = BookAligner(engine: engine, engineIdentity: BookRenderRun.engineIdentity(engine, presetsFolder: loaded.folder))
        if printsJSON { emit(.started(title: publication.title, audioFiles: audio.tracks.count, output: command.epubOutput ?? command.alignment ?? "")) }
        let printer = AlignProgressPrinter(printsJSON: printsJSON, drawsBar: drawsBar, started: started)
        let result: Result<BookAlignment, CommandFailure> = await BlockingWork.run(named: "raudio.align") {
            Result { () throws(CommandFailure) in
                try aligner.align(publication: publication, audio: audio, options: options) { printer.report($0) }
            }
        }
        let alignment = try result.get()
        if drawsBar { StandardStreams.printError("\r\u{1B}[K", newline: false) }
        if printsJSON {
            for chapter in alignment.chapters { emit(.chapter(chapter)) }
            for span in alignment.unmatchedAudio { emit(.unmatchedAudio(span)) }
            for span in alignment.unmatchedText { emit(.unmatchedText(span)) }
        }
        if let path = command.alignment {
            try Self.writeAtomically(path: path) { url throws(CommandFailure) in
                do { try alignment.jsonData().write(to: url) } catch { throw CommandFailure(.outputIOError, code: "output-write-failed", message: "\(path): cannot be written: \(error)") }
            }
            if printsJSON { emit(.output(format: "alignment", path: path)) }
        }
        if let path = command.epubOutput {
            let extracted = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-align-\(getpid())-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: extracted) }
            let files = try Self.audioFiles(audio, alignment: alignment, extractingInto: extracted)
            let documents = try BookAligner.narratedDocuments(for: alignment, publication: publication, configuration: configuration, audio: files)
            let source = URL(fileURLWithPath: command.book), target = URL(fileURLWithPath: path)
            let writerOptions = { () -> MediaOverlayEPUBWriter.Options in
                var options = MediaOverlayEPUBWriter.Options()
                options.linksSharedAudio = linksAudio
                return options
            }()
            let sidecar = LinkedAudio.sidecarURL(of: target)
            let written: Result<[MediaOverlayEPUBWriter.LinkedFile], EPUBWriteError> = await BlockingWork.run(named: "raudio.epub-writer") {
                Result { () throws(EPUBWriteError) in
                    try MediaOverlayEPUBWriter(sourceEPUB: source, options: writerOptions).write(documents, to: target)
                }
            }
            let linked: [MediaOverlayEPUBWriter.LinkedFile]
            do { linked = try written.get() } catch { throw CommandFailure(error) }
            if linksAudio {
                // Beside the EPUB, by paths relative to its folder: the two and the audio move together.
                let folder = target.deletingLastPathComponent().standardizedFileURL
                let links = LinkedAudio(links: linked.map { LinkedAudio.Link(href: $0.href, file: LinkedAudio.relativeReference(from: folder, to: $0.file.standardizedFileURL)) })
                do {
                    try Self.writeAtomically(path: sidecar.path) { url throws(CommandFailure) in
                        do { try links.jsonData().write(to: url) } catch { throw CommandFailure(.outputIOError, code: "output-write-failed", message: "\(sidecar.path): cannot be written: \(error)") }
                    }
                } catch {
                    try? FileManager.default.removeItem(at: target)
                    throw error
                }
            } else if FileManager.default.fileExists(atPath: sidecar.path) {
                // An earlier --link-audio's sidecar no longer says how this EPUB refers to its audio.
                try? FileManager.default.removeItem(at: sidecar)
            }
            if printsJSON { emit(.output(format: "epub3", path: path)) }
        }
        let audioSeconds = alignment.audio.reduce(0) { $0 + $1.duration }
        let wall = Date().timeIntervalSince(started)
        if printsJSON {
            emit(.done(sentences: alignment.sentences.count, aligned: alignment.alignedSentenceCount, unmatchedAudioSeconds: alignment.unmatchedAudioSeconds,
                       audioSeconds: audioSeconds, wallSeconds: (wall * 1000).rounded() / 1000))
        } else {
            StandardStreams.printError(Self.summary(alignment))
        }
    }

    /// The coverage, per chapter then in all, as `align` prints it on a terminal.
    static func summary(_ alignment: BookAlignment) -> String {
        var lines: [String] = []
        for chapter in alignment.chapters where chapter.sentences > 0 {
            let name = chapter.title.map { "\($0) (\(chapter.href))" } ?? chapter.href
            lines.append("  \(name): \(chapter.aligned) of \(chapter.sentences) sentences aligned" + (chapter.notFound > 0 ? ", \(chapter.notFound) not found in the audio" : ""))
        }
        for span in alignment.unmatchedAudio {
            lines.append("  \(span.audioHref) \(Self.clock(span.begin))-\(Self.clock(span.end)): \(String(format: "%.1f", span.duration)) s of audio not in the text")
        }
        if let marks = alignment.chapterMarks {
            lines.append("  chapter marks of the audio: \(marks.given), \(marks.confirmed) of the text's parts located at one (the rest searched for)")
        }
        lines.append("raudio align: \(alignment.alignedSentenceCount) of \(alignment.sentences.count) sentences aligned, \(alignment.unplacedSentenceCount) not found in the audio, "
                     + String(format: "%.1f", alignment.unmatchedAudioSeconds) + " s of audio not in the text")
        return lines.joined(separator: "\n")
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
    }

    /// Writes through a temporary name beside `path`, renamed at the end: nothing under `path` unless whole.
    static func writeAtomically(path: String, _ body: (URL) throws(CommandFailure) -> Void) throws(CommandFailure) {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
        do throws(CommandFailure) {
            try body(temporary)
            _ = try? FileManager.default.removeItem(at: target)
            do { try FileManager.default.moveItem(at: temporary, to: target) } catch {
                throw CommandFailure(.outputIOError, code: "output-write-failed", message: "\(path): cannot be written: \(error.localizedDescription)")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// The narration's tracks: one path opened as a publication (an audiobook, a manifest, an M4B, a folder, an audio
    /// file), several as audio files in natural order.
    static func openAudio(_ paths: [String]) throws(CommandFailure) -> AlignmentAudio {
        let ordered = paths.count == 1 ? paths : paths.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        var tracks: [AlignmentAudio.Track] = []
        var hints: [AlignmentAudio.ChapterHint] = []
        for path in ordered {
            let publication = try PublicationLoading.open(path: path)
            guard !publication.readingOrder.isEmpty, publication.readingOrder.allSatisfy({ $0.mediaType?.isAudio ?? false }) else {
                throw CommandFailure(.badData, code: RAudioErrorCode.alignBadAudio.rawValue, message: "\(path): is not audio (give an audiobook, an M4B, a folder of audio files or audio files)")
            }
            let url = Href.isRemote(path) ? nil : URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            var audio = AlignmentAudio(publication: publication, file: url)
            if paths.count > 1 {
                // Files given one by one are named by their path.
                audio.tracks = audio.tracks.map { track in
                    var named = track
                    named.href = path
                    return named
                }
                audio.chapterHints = audio.chapterHints.map { hint in
                    var named = hint
                    named.trackHref = path
                    return named
                }
            }
            tracks += audio.tracks
            hints += audio.chapterHints
        }
        let hrefs = tracks.map(\.href)
        if Set(hrefs).count != hrefs.count {
            throw CommandFailure.usage("the narration names one audio file twice: give each once")
        }
        return AlignmentAudio(tracks: tracks, chapterHints: hints)
    }

    /// Each track's file to copy into the EPUB, by href: the file itself, or its bytes written into `folder` (a track
    /// inside an audiobook's ZIP or on a server).
    static func audioFiles(_ audio: AlignmentAudio, alignment: BookAlignment, extractingInto folder: URL) throws(CommandFailure) -> [String: ClipAudio] {
        var files: [String: ClipAudio] = [:]
        let durations = Dictionary(alignment.audio.map { ($0.href, $0.duration) }, uniquingKeysWith: { first, _ in first })
        for (number, track) in audio.tracks.enumerated() {
            let pathExtension = ((track.file?.path ?? track.href) as NSString).pathExtension.lowercased()
            var file = track.file
            if file == nil {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let decoderFree = try PublicationResourceCopy.copy(track: track, to: folder.appendingPathComponent("track-\(number + 1).\(pathExtension.isEmpty ? "audio" : pathExtension)"))
                    file = decoderFree
                } catch {
                    throw CommandFailure(.outputIOError, code: "output-write-failed", message: "\(track.href): cannot be copied: \(error)")
                }
            }
            guard let file else { continue }
            let mediaType = track.mediaType ?? Self.mediaType(forExtension: pathExtension)
            files[track.href] = ClipAudio(file: file, mediaType: mediaType, duration: durations[track.href] ?? 0)
        }
        return files
    }

    static func mediaType(forExtension pathExtension: String) -> MediaType {
        switch pathExtension {
        case "mp3": .mp3
        case "m4a", "m4b", "mp4", "aac": .mp4Audio
        case "ogg", "oga", "opus": .ogg
        case "flac": .flac
        case "wav": .wav
        default: MediaType("application/octet-stream")!
        }
    }
}

/// Copies a track's resource (inside a ZIP, or remote) to a file, a chunk at a time: never the whole track in memory.
enum PublicationResourceCopy {
    static let chunkSize = 1 << 20

    static func copy(track: AlignmentAudio.Track, to url: URL) throws -> URL {
        guard let opener = track.resource else { throw CommandFailure.badData("\(track.href): cannot be read") }
        try copy(try opener(), to: url)
        return url
    }

    /// Writes `resource` to `url` in `chunkSize` reads; returns the bytes written.
    @discardableResult
    static func copy(_ resource: any Resource, to url: URL) throws -> UInt64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CommandFailure(.outputIOError, code: "output-write-failed", message: "\(url.path): cannot be created")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let session = try resource.openReadSession()
        var offset: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { bytes in try session.read(into: bytes, at: offset) }
            if count == 0 { break }
            try handle.write(contentsOf: buffer[0..<count])
            offset += UInt64(count)
        }
        return offset
    }
}

