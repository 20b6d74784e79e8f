// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared

/// `raudio play AUDIOBOOK --text BOOK.epub`: the aligned EPUB of the two, made once by `raudio align`'s own run and
/// kept in `$XDG_CACHE_HOME/raudio/aligned/KEY.epub`, then played as any narrated EPUB: the same text locators at the
/// same times as `raudio play OUT.epub` of `raudio align BOOK.epub AUDIOBOOK --to epub3 OUT.epub`.
///
/// KEY is a hash of what decides the alignment: each input's identity (the book's bytes; of each audio file, its
/// name, size and first and last 64 KiB, so that a long audiobook is not read whole at each play) and raudio's
/// version. A moved or renamed input keeps its alignment; a changed one is aligned again.
struct LiveAlignment {
    let audio: String
    let text: String
    var cacheFolder: URL = LiveAlignment.defaultFolder()

    /// `$XDG_CACHE_HOME/raudio/aligned`, else `~/.cache/raudio/aligned`.
    static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        RemoteByteCache.defaultFolder(environment: environment).appendingPathComponent("aligned")
    }

    /// The cached aligned EPUB's path, aligning first when there is none. Progress goes to stderr (a bar on a
    /// terminal), never to stdout, which carries `play`'s own events.
    func alignedEPUB() async throws(CommandFailure) -> String {
        for path in [text, audio] where !Href.isRemote(path) && !FileManager.default.fileExists(atPath: (path as NSString).expandingTildeInPath) {
            throw CommandFailure.notFound("\(path): no such file or folder")
        }
        let key = try Self.key(audio: audio, text: text)
        let target = cacheFolder.appendingPathComponent("\(key).epub")
        if FileManager.default.fileExists(atPath: target.path), Self.linkedAudioIsInPlace(besides: target) {
            StandardStreams.printError("raudio: \(audio) synced with \(text) (the alignment kept in \(target.path))")
            return target.path
        }
        do {
            try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(.cannotCreateOutput, code: "output-not-writable", message: "\(cacheFolder.path): cannot be made: \(error.localizedDescription)")
        }
        StandardStreams.printError("raudio: syncing \(audio) with \(text) (once: the alignment is kept in \(target.path))")
        let command: AlignCommand
        do {
            command = try AlignCommand.parse([text, audio, "--to", "epub3", target.path])
        } catch {
            throw CommandFailure.usage(AlignCommand.message(for: error))
        }
        var run = BookAlignRun(command: command)
        run.printsEvents = false
        // The audio files are linked, not copied (the cache holds no copy of the audiobook); a package's tracks
        // (an .audiobook, a remote manifest) are copied in.
        run.linksAudioWhenFiles = true
        try await run.run()
        return target.path
    }

    /// Whether every audio file the cached EPUB's sidecar links is where it was (an audiobook moved since keeps its
    /// key, but not its links: it is aligned again); true when it links none.
    static func linkedAudioIsInPlace(besides epub: URL) -> Bool {
        guard let linked = try? LinkedAudio.load(besides: epub) else {
            return !FileManager.default.fileExists(atPath: LinkedAudio.sidecarURL(of: epub).path)
        }
        return linked.files(besides: epub).allSatisfy { FileManager.default.fileExists(atPath: $0.file.path) }
    }

    /// The hash naming the alignment of `audio` with `text`.
    static func key(audio: String, text: String) throws(CommandFailure) -> String {
        var hash = FNV1a64()
        hash.combine("raudio \(RAudioVersion.current) align\n".utf8)
        for (role, path) in [("text", text), ("audio", audio)] {
            hash.combine("\(role)\n".utf8)
            if Href.isRemote(path) {
                hash.combine("\(path)\n".utf8)
                continue
            }
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            for file in regularFiles(under: url) {
                identify(file, relativeTo: url, whole: role == "text", into: &hash)
            }
        }
        return hash.hex
    }

    /// The regular files of a path: itself, or those under a folder in their order of names.
    static func regularFiles(under url: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return [url] }
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        var files: [URL] = []
        while let next = enumerator?.nextObject() as? URL {
            if (try? next.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(next) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Adds a file's name (relative to the input), size and bytes (all of them, or the first and last 64 KiB).
    static func identify(_ file: URL, relativeTo root: URL, whole: Bool, into hash: inout FNV1a64) {
        let name = file.path == root.path ? file.lastPathComponent : String(file.path.dropFirst(root.path.count))
        guard let handle = try? FileHandle(forReadingFrom: file) else {
            hash.combine("\(name) unreadable\n".utf8)
            return
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        hash.combine("\(name) \(size)\n".utf8)
        let window: UInt64 = 64 * 1024
        try? handle.seek(toOffset: 0)
        if whole || size <= 2 * window {
            hash.combine((try? handle.readToEnd()) ?? Data())
        } else {
            hash.combine((try? handle.read(upToCount: Int(window))) ?? Data())
            try? handle.seek(toOffset: size - window)
            hash.combine((try? handle.read(upToCount: Int(window))) ?? Data())
        }
    }
}
