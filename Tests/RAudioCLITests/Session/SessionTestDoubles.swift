// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
@testable import RAudioCLI
@testable import RAudioPlayer

/// A navigator behind the session, as a test double: it records what the session asks of it and
/// answers `status` with what the test set. The test sends the navigator's events itself, through
/// `SessionLoop.handle(.navigator(...))`, so the session runs in order and without threads or audio.
final class ControllerDouble: PlaybackController {
    let navigatorEvents = AsyncStream<SessionEvent> { $0.finish() }
    private let performed = Locked<[PlayerCommand]>([])
    let current = Locked<(state: PlaybackState, locator: Locator?)>((.idle, nil))

    var commands: [PlayerCommand] { performed.withLock { $0 } }

    func play() async { performed.withLock { $0.append(.play) } }
    func stop() async { performed.withLock { $0.append(.stop) } }
    func status() async -> (state: PlaybackState, locator: Locator?) { current.withLock { $0 } }
    func perform(_ command: PlayerCommand) async throws(CommandRefusal) { performed.withLock { $0.append(command) } }
    func close() async {}
}

/// Keeps every event the session writes, in order (as the terminal and MPRIS receive them).
final class EventRecorder: EventObserver {
    private let received = Locked<[PlayerEvent]>([])

    func receive(_ event: PlayerEvent) { received.withLock { $0.append(event) } }

    var all: [PlayerEvent] { received.withLock { $0 } }

    /// The events of `type`, as the JSON objects a client gets.
    func events(_ type: String) -> [JSONObject] {
        all.filter { $0.kind.rawValue == type }.compactMap(\.json.objectValue)
    }

    var types: [String] { all.map(\.kind.rawValue) }
}

/// A session loop over a `ControllerDouble`, its events recorded, its sleep timer on a manual clock.
struct SessionHarness {
    let controller = ControllerDouble()
    let recorder = EventRecorder()
    let clock = ManualClock()
    var loop: SessionLoop

    init(chapters: ChapterMap? = nil) {
        let writer = EventWriter(observers: [recorder])
        loop = SessionLoop(controller: controller, writer: writer, keepOpen: false, sleepTimer: SleepTimer(clock: clock, tick: nil),
                           chapters: chapters)
    }

    /// Handles a navigator event.
    mutating func navigator(_ event: SessionEvent) async throws {
        _ = try await loop.handle(.navigator(event))
    }

    /// Handles a command line as stdin gives it.
    mutating func command(_ line: String) async throws {
        guard let command = IncomingCommand(parsing: line) else { return }
        _ = try await loop.handle(.command(command))
    }

    /// Moves the manual clock by `seconds`, then ticks the sleep timer once.
    mutating func pass(_ seconds: Double) async throws {
        clock.advance(by: seconds)
        _ = try await loop.handle(.sleepTick)
    }
}

/// Books made by the tests, as the session sees them.
enum SessionBooks {
    /// A text publication whose reading order and table of contents are `hrefs`, one entry each.
    static func textPublication(_ hrefs: [String]) -> Publication {
        let links = hrefs.map { Link(href: $0, type: "application/xhtml+xml", title: "Title of \($0)") }
        let manifest = Manifest(metadata: Metadata(title: .plain("Test")), readingOrder: links, tableOfContents: links)
        return Publication(manifest: manifest, container: SessionBooks.EmptyContainer(), mediaType: .epub)
    }

    /// A text locator in `href` at `progression`.
    static func text(_ href: String, _ progression: Double, _ sentence: String = "A sentence.") -> Locator {
        Locator(href: href, type: "application/xhtml+xml", locations: .init(progression: progression), text: .init(highlight: sentence))
    }

    struct EmptyContainer: Container {
        var sourceURL: URL { URL(fileURLWithPath: "/test") }
        var entries: [String] { [] }
        func resource(at href: String) throws(ResourceError) -> any Resource {
            throw ResourceError(.notFound, href: href, message: "not found")
        }
    }

    /// An EPUB laid out as Project Gutenberg's: a licence header, then three chapters in one XHTML file,
    /// each after an empty `<a id>` anchor inside its heading, then an epilogue in a second file; the
    /// navigation document points at `book.xhtml#chN`. Written as a folder, opened with the content service.
    static func gutenbergLayout() throws -> (publication: Publication, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-pg-\(UUID().uuidString)")
        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let page = { (body: String) in
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\"><head><title>t</title></head><body>\(body)</body></html>"
        }
        let chapters = [(1, "Loomings", "Call me Ishmael."), (2, "The Carpet-Bag", "I stuffed a shirt or two into my old carpet-bag."),
                        (3, "The Spouter-Inn", "Entering that gable-ended Spouter-Inn, you found yourself in a wide entry.")]
        let body = "<p>The Project Gutenberg eBook of a test book. This ebook is for the use of anyone anywhere.</p>"
            + chapters.map { number, title, text in
                "<div class=\"chapter\"><h2><a id=\"ch\(number)\"></a>CHAPTER \(number). \(title)</h2><p>\(text)</p><p>The second paragraph of chapter \(number).</p></div>"
            }.joined()
        try write("mimetype", "application/epub+zip")
        try write("META-INF/container.xml", """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>\
            <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """)
        try write("OEBPS/content.opf", """
            <?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:pg-layout</dc:identifier>\
            <dc:title>PG layout</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>\
            <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\
            <item id="book" href="book.xhtml" media-type="application/xhtml+xml"/><item id="end" href="end.xhtml" media-type="application/xhtml+xml"/></manifest>\
            <spine><itemref idref="book"/><itemref idref="end"/></spine></package>
            """)
        let items = [("book.xhtml", "Front")] + chapters.map { ("book.xhtml#ch\($0.0)", "Chapter \($0.0). \($0.1)") } + [("end.xhtml#end", "Epilogue")]
        try write("OEBPS/nav.xhtml", """
            <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
            <head><title>Contents</title></head><body><nav epub:type="toc"><ol>\
            \(items.map { "<li><a href=\"\($0.0)\">\($0.1)</a></li>" }.joined())</ol></nav></body></html>
            """)
        try write("OEBPS/book.xhtml", page(body))
        try write("OEBPS/end.xhtml", page("<h2 id=\"end\">Epilogue</h2><p>The drama is done.</p>"))
        let publication = try EPUBParser().parse(container: FolderContainer(url: folder))
        return (EPUBContentService.attach(to: publication), folder)
    }
}
