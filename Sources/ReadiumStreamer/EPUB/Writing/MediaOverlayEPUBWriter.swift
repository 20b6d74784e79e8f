// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ZIPFoundation

/// Writes a book read aloud as an EPUB 3 with Media Overlays: the source EPUB with its narrated parts marked
/// (`XHTMLNarrationMarker`), one SMIL and one audio file per narrated content document (XHTML or SVG), and the package
/// metadata of a book with overlays (`PackageDocumentEditor`). An EPUB 2 source becomes EPUB 3.
///
/// Synchronous; call it from a thread that may block (it reads and writes whole files).
public struct MediaOverlayEPUBWriter {
    public struct Options: Sendable {
        /// `media:narrator`: the voice's name.
        public var narrators: [String]
        /// `media:active-class`: the class a reading system gives the element being read.
        public var activeClass: String
        /// `media:playback-active-class`: the class of the document's root while it plays.
        public var playbackActiveClass: String?
        /// `dcterms:modified` and the ZIP entries' time; nil for the source's latest entry time (deterministic).
        public var modificationDate: Date?
        /// Whether the shared audio files of clips (`NarrationClip.audio`) are linked instead of copied in: their
        /// manifest items and SMIL references are written as always, the files are not added to the ZIP, and
        /// `write` returns each one's href in the package with its file (for `LinkedAudio`'s sidecar).
        public var linksSharedAudio = false

        public init(narrators: [String] = [], activeClass: String = "-epub-media-overlay-active",
                    playbackActiveClass: String? = "-epub-media-overlay-playing") {
            self.narrators = narrators
            self.activeClass = activeClass
            self.playbackActiveClass = playbackActiveClass
        }
    }

    /// A shared audio file linked instead of copied (`Options.linksSharedAudio`): its href in the package, from the
    /// container's root, and the file.
    public struct LinkedFile: Sendable, Hashable {
        public var href: String
        public var file: URL
    }

    /// The folder, beside the package document, of the files this writer adds.
    static let folder = "raudio"

    public let sourceEPUB: URL
    public let options: Options

    public init(sourceEPUB: URL, options: Options) {
        self.sourceEPUB = sourceEPUB
        self.options = options
    }

    /// Writes the source EPUB with `documents` narrated to `output` (a temporary name beside it, renamed at the end;
    /// nothing left under `output` on failure). Deterministic: the same input gives the same bytes. Returns the shared
    /// audio files linked instead of copied (`Options.linksSharedAudio`), in order: each one's href in the package
    /// and its file; empty otherwise.
    @discardableResult
    public func write(_ documents: [NarratedDocument], to output: URL) throws(EPUBWriteError) -> [LinkedFile] {
        let source = try SourceEPUB(url: sourceEPUB)
        var linked: [LinkedFile] = []
        let entries = try narratedEntries(source: source, documents: documents, linked: &linked)
        let temporary = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
        do {
            try ZIPEntryWriter.write(entries, to: temporary, date: ZIPEntryWriter.dosDate(options.modificationDate ?? source.latestModification))
            if FileManager.default.fileExists(atPath: output.path) { try FileManager.default.removeItem(at: output) }
            try FileManager.default.moveItem(at: temporary, to: output)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw EPUBWriteError(.unwritableOutput, subject: output.path, message: "cannot be written: \(error.localizedDescription)", cause: error)
        }
        return linked
    }

    /// The entries of the written EPUB, in order: the source's (marked where narrated) then the added files.
    private func narratedEntries(source: SourceEPUB, documents: [NarratedDocument], linked: inout [LinkedFile]) throws(EPUBWriteError) -> [ZIPEntryWriter.Entry] {
        var replaced: [String: Data] = [:]
        var added: [ZIPEntryWriter.Entry] = []
        let opfDirectory = source.packagePath.split(separator: "/").dropLast().map(String.init)
        var editor = try PackageDocumentEditor(data: source.packageData, href: source.packagePath)
        let folderPath = opfDirectory + [Self.folder]
        let stylesheetPath = folderPath + ["media-overlay.css"]
        var overlays: [PackageDocumentEditor.Overlay] = []
        var sharedAudio: [URL: [String]] = [:]
        for (index, document) in documents.enumerated() {
            let path = (try? Href(document.href.hasPrefix("/") ? String(document.href.dropFirst()) : document.href).path) ?? document.href
            guard let item = source.package.items.first(where: { $0.path == path }),
                  [MediaType.xhtml.string, MediaType.svg.string].contains(item.mediaType), let data = source.data[path] else {
                throw EPUBWriteError(.invalidNarration, subject: document.href, message: "is not an XHTML or SVG content document of \(sourceEPUB.lastPathComponent)")
            }
            let number = index + 1
            let documentPath = path.split(separator: "/").map(String.init)
            let smilPath = folderPath + ["overlay-\(number).smil"]
            if document.clips.contains(where: { $0.audio != nil }) {
                // Clips in shared audio files (a narration aligned with the text): each file added once.
                var marker = try XHTMLNarrationMarker(data: data, href: path)
                var pars: [SMILDocumentWriter.Par] = []
                var duration = 0.0
                for (clipIndex, clip) in document.clips.enumerated() {
                    let audio = clip.audio ?? ClipAudio(file: document.audioFile, mediaType: document.audioMediaType, duration: document.duration)
                    let audioPath = try sharedAudioPath(audio, folder: folderPath, packagePath: source.packagePath, added: &added, linked: &linked, paths: &sharedAudio, editor: &editor)
                    let id = marker.mark(clip.target, serial: clipIndex + 1)
                    pars.append(.init(textSource: Self.relativeHref(from: smilPath, to: documentPath) + "#" + id, begin: clip.begin, end: clip.end,
                                      audioSource: Self.relativeHref(from: smilPath, to: audioPath), audioDuration: audio.duration))
                    duration += (min(clip.end, audio.duration) * 1000).rounded() / 1000 - (max(0, clip.begin) * 1000).rounded() / 1000
                }
                marker.linkStylesheet(Self.relativeHref(from: documentPath, to: stylesheetPath))
                replaced[path] = marker.markedData()
                let smil = SMILDocumentWriter.document(textReference: Self.relativeHref(from: smilPath, to: documentPath),
                                                       audioSource: "", pars: pars, duration: duration)
                added.append(.init(path: smilPath.joined(separator: "/"), data: Data(smil.utf8), compressed: true))
                overlays.append(.init(contentItemID: item.id, smilID: editor.newIdentifier("raudio-overlay-\(number)"),
                                      smilHref: Self.relativeHref(from: source.packagePath.split(separator: "/").map(String.init), to: smilPath),
                                      audioID: nil, audioHref: "", audioMediaType: "", duration: max(0, duration)))
                continue
            }
            let audio: Data
            do {
                audio = try Data(contentsOf: document.audioFile)
            } catch {
                throw EPUBWriteError(.invalidNarration, subject: document.audioFile.path, message: "cannot be read: \(error.localizedDescription)", cause: error)
            }
            let audioExtension = document.audioFile.pathExtension.isEmpty ? "audio" : document.audioFile.pathExtension.lowercased()
            let audioPath = folderPath + ["audio-\(number).\(audioExtension)"]

            var marker = try XHTMLNarrationMarker(data: data, href: path)
            var pars: [SMILDocumentWriter.Par] = []
            for (clipIndex, clip) in document.clips.enumerated() {
                let id = marker.mark(clip.target, serial: clipIndex + 1)
                pars.append(.init(textSource: Self.relativeHref(from: smilPath, to: documentPath) + "#" + id, begin: clip.begin, end: clip.end))
            }
            marker.linkStylesheet(Self.relativeHref(from: documentPath, to: stylesheetPath))
            replaced[path] = marker.markedData()
            let smil = SMILDocumentWriter.document(textReference: Self.relativeHref(from: smilPath, to: documentPath),
                                                   audioSource: Self.relativeHref(from: smilPath, to: audioPath), pars: pars, duration: document.duration)
            added.append(.init(path: smilPath.joined(separator: "/"), data: Data(smil.utf8), compressed: true))
            added.append(.init(path: audioPath.joined(separator: "/"), data: audio, compressed: false))
            overlays.append(.init(contentItemID: item.id, smilID: editor.newIdentifier("raudio-overlay-\(number)"),
                                  smilHref: Self.relativeHref(from: source.packagePath.split(separator: "/").map(String.init), to: smilPath),
                                  audioID: editor.newIdentifier("raudio-audio-\(number)"),
                                  audioHref: Self.relativeHref(from: source.packagePath.split(separator: "/").map(String.init), to: audioPath),
                                  audioMediaType: document.audioMediaType.string, duration: document.duration))
        }
        // A narrated document's earlier overlay goes (a content document has one Media Overlay Document).
        let narratedIDs = Set(overlays.map(\.contentItemID))
        let replacedOverlays = Set(source.package.items.filter { narratedIDs.contains($0.id) }.compactMap(\.mediaOverlay))
        let keptOverlays = Set(source.package.items.filter { !narratedIDs.contains($0.id) }.compactMap(\.mediaOverlay))
        var droppedPaths: Set<String> = []
        for id in replacedOverlays.subtracting(keptOverlays).sorted() {
            editor.removeManifestItem(id: id)
            if let path = source.package.items.first(where: { $0.id == id })?.path { droppedPaths.insert(path) }
        }
        let stylesheetID = editor.newIdentifier("raudio-media-overlay-css")
        let css = Self.activeClassStylesheet(Self.cssIdentifier(options.activeClass))
        added.insert(.init(path: stylesheetPath.joined(separator: "/"), data: Data(css.utf8), compressed: true), at: 0)
        if !source.package.version.hasPrefix("3") {
            // EPUB 2: version 3.0, a navigation document made from the NCX (kept), EPUB 3 metadata.
            editor.setVersion3()
            editor.convertEPUB2Metadata()
            // EPUB 3 content documents are HTML5's XHTML: `<!DOCTYPE html>`, and no named character reference but
            // XML's five (EPUBCheck HTM-004 on the XHTML 1.1 DOCTYPE of an EPUB 2 book).
            for item in source.package.items where item.mediaType == MediaType.xhtml.string {
                guard let data = replaced[item.path] ?? source.data[item.path] else { continue }
                if let upgraded = Self.html5Document(data) { replaced[item.path] = upgraded }
                // EPUB 3 declares the SVG a document holds inline (EPUBCheck OPF-014).
                if data.range(of: Data("<svg".utf8)) != nil { editor.addProperty("svg", toItem: item.id) }
            }
            let navPath = folderPath + ["nav.xhtml"]
            let ncxPath = source.package.ncxID.flatMap { id in source.package.items.first { $0.id == id }?.path }
                ?? source.package.items.first { $0.mediaType == MediaType.ncx.string }?.path
            let packageComponents = source.packagePath.split(separator: "/").map(String.init)
            if let ncxPath, let ncx = source.data[ncxPath],
               let nav = NavigationDocumentMaker.document(ncx: ncx, ncxPath: ncxPath, path: navPath, title: source.title, language: source.package.language) {
                added.insert(.init(path: navPath.joined(separator: "/"), data: Data(nav.utf8), compressed: true), at: 0)
                let navID = editor.newIdentifier("raudio-nav")
                editor.extraManifestItems.append("<item id=\"\(navID)\" href=\"\(Self.relativeHref(from: packageComponents, to: navPath))\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>")
            }
        }
        editor.add(overlays: overlays, stylesheet: (stylesheetID, Self.relativeHref(from: source.packagePath.split(separator: "/").map(String.init), to: stylesheetPath)),
                   options: options, modified: Self.timestamp(options.modificationDate ?? source.latestModification))
        replaced[source.packagePath] = editor.editedData()

        var entries = [ZIPEntryWriter.Entry(path: "mimetype", data: Data("application/epub+zip".utf8), compressed: false)]
        for path in source.order where path != "mimetype" && !droppedPaths.contains(path) {
            entries.append(.init(path: path, data: replaced[path] ?? source.data[path] ?? Data(), compressed: ZIPEntryWriter.compresses(path)))
        }
        return entries + added
    }

    /// The path in the package of a shared audio file (`NarrationClip.audio`), added with its manifest item the
    /// first time: `narration-N.EXT` in the writer's folder, N counting the shared files in order of first use.
    private func sharedAudioPath(_ audio: ClipAudio, folder: [String], packagePath: String, added: inout [ZIPEntryWriter.Entry],
                                 linked: inout [LinkedFile], paths: inout [URL: [String]],
                                 editor: inout PackageDocumentEditor) throws(EPUBWriteError) -> [String] {
        if let path = paths[audio.file] { return path }
        let number = paths.count + 1
        let fileExtension = audio.file.pathExtension.isEmpty ? "audio" : audio.file.pathExtension.lowercased()
        let path = folder + ["narration-\(number).\(fileExtension)"]
        paths[audio.file] = path
        if options.linksSharedAudio {
            guard FileManager.default.isReadableFile(atPath: audio.file.path) else {
                throw EPUBWriteError(.invalidNarration, subject: audio.file.path, message: "cannot be read")
            }
            linked.append(LinkedFile(href: path.joined(separator: "/"), file: audio.file))
        } else {
            let data: Data
            do {
                data = try Data(contentsOf: audio.file, options: .mappedIfSafe)
            } catch {
                throw EPUBWriteError(.invalidNarration, subject: audio.file.path, message: "cannot be read: \(error.localizedDescription)", cause: error)
            }
            added.append(.init(path: path.joined(separator: "/"), data: data, compressed: false))
        }
        let id = editor.newIdentifier("raudio-narration-\(number)")
        let href = Self.relativeHref(from: packagePath.split(separator: "/").map(String.init), to: path)
        editor.extraManifestItems.append("<item id=\"\(id)\" href=\"\(XHTMLNarrationMarker.escape(href))\" media-type=\"\(XHTMLNarrationMarker.escape(audio.mediaType.string))\"/>")
        return path
    }

    /// The href of `target` from the file at `base` (both paths from the container's root, as components),
    /// each component percent-encoded.
    static func relativeHref(from base: [String], to target: [String]) -> String {
        let baseDirectory = Array(base.dropLast())
        var common = 0
        while common < baseDirectory.count, common < target.count - 1, baseDirectory[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: baseDirectory.count - common)
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        let downs = target[common...].map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return (ups + downs).joined(separator: "/")
    }

    /// A named character reference, `&name;`.
    private static let namedReference = try! NSRegularExpression(pattern: "&([A-Za-z][A-Za-z0-9]*);")

    /// An EPUB 2 content document as EPUB 3 takes it: its DOCTYPE (XHTML 1.1's, with or without an internal
    /// subset) replaced by `<!DOCTYPE html>`, and each named character reference other than XML's five written
    /// as the numeric references of its characters (the same text). Nil when nothing changes or the document
    /// is not UTF-8.
    static func html5Document(_ data: Data) -> Data? {
        guard var text = String(data: data, encoding: .utf8) else { return nil }
        let original = text
        if let start = text.range(of: "<!DOCTYPE"), text[..<start.lowerBound].range(of: "<[A-Za-z]", options: .regularExpression) == nil {
            var depth = 0
            var end: String.Index?
            var index = start.upperBound
            while index < text.endIndex {
                let character = text[index]
                if character == "[" { depth += 1 } else if character == "]" { depth -= 1 } else if character == ">" && depth <= 0 {
                    end = text.index(after: index)
                    break
                }
                index = text.index(after: index)
            }
            if let end, text[start.lowerBound..<end] != "<!DOCTYPE html>" { text.replaceSubrange(start.lowerBound..<end, with: "<!DOCTYPE html>") }
        }
        let matches = namedReference.matches(in: text, range: NSRange(text.startIndex..., in: text))
        for match in matches.reversed() {
            guard let whole = Range(match.range, in: text), let nameRange = Range(match.range(at: 1), in: text) else { continue }
            let name = String(text[nameRange])
            guard !["amp", "lt", "gt", "quot", "apos"].contains(name), let characters = XHTMLByteScanner.decodeEntity(name) else { continue }
            text.replaceSubrange(whole, with: characters.unicodeScalars.map { "&#x\(String($0.value, radix: 16, uppercase: true));" }.joined())
        }
        return text == original ? nil : Data(text.utf8)
    }

    /// The overlay's stylesheet: the element read marked by `.active` (a class name as CSS writes it). XHTML text gets
    /// a background. SVG text has none: its words are coloured (`fill`, also over the fills of what it holds), and
    /// no SVG element gets a `color`, which would change every `currentColor` fill and stroke in it (a reading system
    /// without CSS namespaces drops that rule and the SVG ones, and still shows the background). `!important`: an
    /// element marked by its own `id` may have a background of the page's (`p#note { background: … }`), over which a
    /// class would not show.
    static func activeClassStylesheet(_ active: String) -> String {
        """
        /* raudio: the text being read aloud (EPUB 3 Media Overlays media:active-class) */
        @namespace svg url(http://www.w3.org/2000/svg);
        .\(active) { background-color: #fff3a0 !important; }
        .\(active):not(svg|*) { color: #000 !important; }
        svg|text.\(active), svg|tspan.\(active) { fill: #8a5a00 !important; }
        svg|text.\(active) svg|*, svg|tspan.\(active) svg|* { fill: inherit !important; }

        """
    }

    /// `name` escaped as a CSS class selector's identifier.
    static func cssIdentifier(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" ? String(scalar) : "\\" + String(scalar)
        }.joined())
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: date)
    }
}
