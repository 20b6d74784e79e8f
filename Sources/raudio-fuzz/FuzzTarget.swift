// SPDX-License-Identifier: GPL-3.0-or-later
#if FUZZING
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioEngine
import ReadiumShared
@testable import ReadiumStreamer

/// The parsers raudio-fuzz can drive, one per libFuzzer run (`raudio-fuzz TARGET ...`).
///
/// Each feeds one input to one parser and ignores its outcome: errors and warnings are what bad input
/// should produce. The navigation, NCX and XHTML parsers are internal to ReadiumStreamer, hence the
/// `@testable` imports (the fuzz build is a debug build, which enables testing).
enum FuzzTarget: String, CaseIterable, Sendable {
    /// A Readium Web Publication Manifest: `Manifest(jsonData:source:log:)`.
    case manifest
    /// A Readium locator: `Locator(jsonString:)`.
    case locator
    /// An EPUB package document, opened by `EPUBParser` inside an otherwise valid in-memory EPUB.
    case opf
    /// An EPUB 3 navigation document: `EPUBNavigationParser.parseNavigationDocument`.
    case nav
    /// An EPUB 2 NCX: `EPUBNavigationParser.parseNCX`.
    case ncx
    /// An XHTML content document: `HTMLContentExtractor.extract`, as the content iterator reads it.
    case xhtml
    /// A SMIL media overlay: `SMILParser.parse`.
    case smil
    /// A ZIP archive: `ZIPContainer(url:)` over a temporary file, then every entry read (capped).
    case zip
    /// One stdin line of `raudio play`/`speak`: `PlayerCommandParser.parse(line:)`.
    case command
    /// The bytes of an upgraded WebSocket connection: NIO's frame decoder, then `IPCWebSocketHandler`
    /// (RFC 6455 rules, commands, close codes): `IPCFuzzHarness.webSocket`.
    case websocket
    /// The bytes of a `--ipc ws://` connection: the HTTP server pipeline, the upgrader, `IPCHTTPHandler`'s
    /// admission and refusals, then frames; and the input as a `Range` header and a requested href:
    /// `IPCFuzzHarness.http`.
    case http
    /// A W3C Publication Manifest (`publication.json`): `W3CAudiobookParser`, as an `.lpf` opens it.
    case w3c
    /// An audio file's tags, chapters and cover, mapped to a publication: `FFmpegAudioFileInspector`
    /// (FFmpeg's demuxers, then our mapping and chapter repair) and `InformalAudiobookParser`'s toc.
    case audiotags

    /// The target of this process, set once by main.swift before libFuzzer starts; read on its thread.
    nonisolated(unsafe) static var selected: FuzzTarget = .manifest

    /// Bytes read per ZIP entry at most, so that a small archive declaring huge entries is no finding.
    static let zipReadCap: UInt64 = 1 << 20

    func run(_ data: Data) {
        switch self {
        case .manifest:
            _ = try? Manifest(jsonData: data, source: "fuzz/manifest.json", log: WarningLog())
        case .locator:
            _ = try? Locator(jsonString: String(decoding: data, as: UTF8.self))
        case .opf:
            _ = try? EPUBParser().parse(container: Self.epub(package: data))
        case .nav:
            guard let document = try? XMLDocument(data: data, href: "OEBPS/nav.xhtml", mode: .recovering) else { return }
            _ = EPUBNavigationParser(warnings: WarningLog()).parseNavigationDocument(document)
        case .ncx:
            guard let document = try? XMLDocument(data: data, href: "OEBPS/toc.ncx", mode: .strict) else { return }
            _ = EPUBNavigationParser(warnings: WarningLog()).parseNCX(document)
        case .xhtml:
            guard let document = try? XMLDocument(data: data, href: "OEBPS/chapter.xhtml", mode: .recovering) else { return }
            let extractor = HTMLContentExtractor(
                href: "OEBPS/chapter.xhtml", type: "application/xhtml+xml",
                defaultLanguage: Language(code: "en"), totalProgressionRange: 0.25..<0.5
            )
            _ = extractor.extract(document)
        case .smil:
            _ = try? SMILParser.parse(data, href: "OEBPS/chapter.smil")
        case .zip:
            Self.readArchive(data)
        case .command:
            _ = PlayerCommandParser.parse(line: String(decoding: data, as: UTF8.self))
        case .websocket:
            IPCFuzzHarness.webSocket(data)
        case .http:
            IPCFuzzHarness.http(data)
        case .w3c:
            let container = InMemoryContainer(files: [W3CAudiobookParser.manifestHref: data])
            _ = try? W3CAudiobookParser().parse(container: container, manifestHref: W3CAudiobookParser.manifestHref, errorPath: "fuzz.lpf", mediaType: .lpf)
        case .audiotags:
            guard let description = try? FFmpegAudioFileInspector().inspect(DataResource(href: "fuzz.m4b", data: data)) else { return }
            _ = InformalAudiobookParser.tableOfContents(description.chapters, href: "fuzz.m4b")
        }
    }

    /// An EPUB whose package document is `package`, with the files a typical package names.
    static func epub(package: Data) -> InMemoryContainer {
        let containerXML = """
            <?xml version="1.0"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
              <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
            </container>
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body><p id="p1">Text.</p></body></html>
            """
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
            <nav epub:type="toc"><ol><li><a href="chapter.xhtml">One</a></li></ol></nav></body></html>
            """
        return InMemoryContainer(files: [
            "mimetype": Data("application/epub+zip".utf8),
            "META-INF/container.xml": Data(containerXML.utf8),
            "OEBPS/content.opf": package,
            "OEBPS/chapter.xhtml": Data(chapter.utf8),
            "OEBPS/nav.xhtml": Data(nav.utf8),
        ])
    }

    /// Writes `data` to this process's temporary archive, opens it and reads every entry.
    static func readArchive(_ data: Data) {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("raudio-fuzz-\(getpid()).zip")
        guard (try? data.write(to: url)) != nil else { return }
        defer { try? FileManager.default.removeItem(at: url) }
        guard let container = try? ZIPContainer(url: url) else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for href in container.entries {
            guard let resource = try? container.resource(at: href) else { continue }
            let length = (try? resource.length()) ?? 0
            _ = try? resource.read(range: 0..<min(length, zipReadCap))
            if length > 16 {
                _ = buffer.withUnsafeMutableBytes { try? resource.read(into: $0, at: length / 2) }
            }
        }
        container.close()
    }
}
#endif
