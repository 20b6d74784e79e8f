// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
@testable import ReadiumStreamer
import Testing
import ZIPFoundation

/// `MediaOverlayEPUBWriter` on real books: their real utterances laid out over a real MP3, at sentence and word
/// granularity; what is checked is what a reading system and EPUBCheck need.
@Suite(.serialized) struct MediaOverlayEPUBWriterTests {
    enum Granularity: String, CaseIterable, Sendable { case sentence, word }

    static let books = [
        "samples/lighthouse.epub",
        "epub/idpf-epub3-samples/hefty-water.epub",
        "epub/idpf-epub3-samples/sous-le-vent.epub",
        "epub/idpf-epub3-samples/regime-anticancer-arabic.epub",
        "epub/idpf-epub3-samples/kusamakura-japanese-vertical-writing.AUDIO-MISSING.epub",
        "epub/readium-test-files/Tiny-2-NCX.epub",
        // EPUB 2 with XHTML 1.1's DOCTYPE, which EPUB 3 refuses (HTM-004).
        "epub/epubcheck-edge/epub2-ocf-minimal-valid.epub",
        // SVG content documents only: `tspan`s in their `text`, a stylesheet by `xml-stylesheet`.
        "epub/w3c-epub-tests/pkg-spine-order-svg.epub",
    ]

    static func bookURL(_ path: String) throws -> URL {
        path.hasPrefix("samples/") ? Corpus.projectRoot.appendingPathComponent(path) : try Corpus.file(path)
    }

    static let audio = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3")

    /// The narrated documents of `book`: its utterances' targets, clips laid out one after another over the MP3.
    static func narration(of book: URL, granularity: Granularity) throws -> [NarratedDocument] {
        let publication = try TestEPUBOpener.open(book)
        let duration = try AudioDurationProbe.duration(of: FileResource(url: audio)).seconds
        var targets: [(href: String, target: NarrationTarget)] = []
        for utterance in try SpeechUtterances(publication: publication) where !utterance.isMedia && !utterance.text.isEmpty {
            switch granularity {
            case .sentence:
                targets.append((utterance.locator.href, utterance.narrationTarget))
            case .word:
                for word in TTSWordScanner.words(in: utterance.text) {
                    targets.append((utterance.locator.href, utterance.narrationTarget(forWordAt: word.range)))
                }
            }
        }
        var order: [String] = []
        var byHref: [String: [NarrationTarget]] = [:]
        for (href, target) in targets {
            if byHref[href] == nil { order.append(href) }
            byHref[href, default: []].append(target)
        }
        return order.map { href in
            let documentTargets = byHref[href]!
            let step = duration / Double(documentTargets.count)
            let clips = documentTargets.enumerated().map { index, target in
                NarrationClip(target: target, begin: Double(index) * step, end: Double(index + 1) * step)
            }
            return NarratedDocument(href: href, audioFile: audio, audioMediaType: .mp3, duration: duration, clips: clips)
        }
    }

    static func entries(of epub: URL) throws -> [String: Data] {
        let archive = try Archive(url: epub, accessMode: .read)
        var result: [String: Data] = [:]
        for entry in archive where entry.type == .file {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            result[entry.path] = data
        }
        return result
    }

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("raudio-mo-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: books, Granularity.allCases)
    func writtenBookKeepsItsTextAndMarksEveryClip(book: String, granularity: Granularity) throws {
        let source = try Self.bookURL(book)
        let documents = try Self.narration(of: source, granularity: granularity)
        #expect(!documents.isEmpty)
        let output = Self.temporaryFile("\(granularity)-\(source.lastPathComponent)")
        defer { try? FileManager.default.removeItem(at: output) }
        try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init(narrators: ["eSpeak NG en"])).write(documents, to: output)

        let original = try Self.entries(of: source)
        let written = try Self.entries(of: output)
        let publication = try TestEPUBOpener.open(output)
        var spanCount = 0, fallbackCount = 0
        for document in documents {
            let path = try Href(document.href).path
            let before = try #require(original[path]), after = try #require(written[path])
            // Well-formed, same body text.
            let parsedBefore = try XMLDocument(data: before, href: path, mode: .recovering)
            let parsedAfter = try XMLDocument(data: after, href: path)
            // An XHTML document's body; an SVG document's root.
            let isSVG = parsedBefore.root.localName == "svg"
            let textBefore = (parsedBefore.root.firstDescendant("body") ?? parsedBefore.root).textContent
            let textAfter = (parsedAfter.root.firstDescendant("body") ?? parsedAfter.root).textContent
            #expect(!textBefore.isEmpty && textBefore == textAfter, "\(path): text changed")
            // Only insertions: every original byte is still there, in order (an EPUB 2 document's, once its
            // DOCTYPE and named references are EPUB 3's: anEPUB2DocumentGetsHTML5sDoctypeAndNumericReferences).
            let packageDocument = String(decoding: original.first { $0.key.hasSuffix(".opf") }?.value ?? Data(), as: UTF8.self)
            let isEPUB2 = packageDocument.range(of: #"<package[^>]*version\s*=\s*["']2"#, options: .regularExpression) != nil
            let base = isEPUB2 ? MediaOverlayEPUBWriter.html5Document(before) ?? before : before
            let onlyInsertions = Self.isOriginalWithInsertions(original: [UInt8](base), written: [UInt8](after))
            #expect(onlyInsertions, "\(path): bytes outside the inserted markup changed")
            // Each id once.
            var idCounts: [String: Int] = [:]
            var byID: [String: XMLElement] = [:]
            for element in [parsedAfter.root] + parsedAfter.root.descendants {
                if let id = element.attribute("id") { idCounts[id, default: 0] += 1; byID[id] = element }
            }
            #expect(idCounts.values.allSatisfy { $0 == 1 }, "\(path): duplicate ids")

            // The overlay the parser reads gives back the clips.
            let index = try #require(publication.readingOrder.firstIndex { $0.href == document.href })
            let overlay = try #require(try publication.mediaOverlays?.mediaOverlay(at: index))
            #expect(overlay.pars.count == document.clips.count)
            for (par, clip) in zip(overlay.pars, document.clips) {
                #expect(try par.textPath.map { try Href($0).path } == path)
                let fragment = try #require(par.textFragment)
                let element = try #require(byID[fragment], "\(path)#\(fragment) is not in the document")
                let audio = try #require(par.audio)
                #expect(abs(audio.begin - clip.begin) < 0.001 && abs((audio.end ?? -1) - clip.end) < 0.001)
                if fragment.hasPrefix("raudio-s"), let range = clip.target.textRange, let text = clip.target.elementText?.text {
                    spanCount += 1
                    let expected = String(decoding: Array(text.utf8)[range], as: UTF8.self)
                    #expect(element.localName == (isSVG ? "tspan" : "span") && element.textContent == expected, "\(path)#\(fragment): '\(element.textContent)' is not '\(expected)'")
                } else {
                    fallbackCount += 1
                }
            }
        }
        // Sous le vent's text is all SVG `text`: ids on its elements, no span.
        #expect(spanCount > 0 || book.contains("sous-le-vent"))
        print("\(book) \(granularity): \(spanCount) spans, \(fallbackCount) element ids")
        #expect(written.keys.contains("mimetype"))
    }

    /// EPUBCheck reports nothing on the written book that it did not report on the source (0 errors and 0 warnings
    /// for a valid source).
    /// Each book at one granularity (EPUBCheck takes half a minute on a large book): words where the book is small,
    /// sentences for the two largest (both granularities are written and parsed back above).
    static let checkedGranularities: [Granularity] = [.word, .word, .word, .sentence, .sentence, .word, .word, .word]

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), .enabled(if: EPUBCheck.isAvailable, EPUBCheck.skipMessage),
          arguments: zip(books, checkedGranularities))
    func epubCheckFindsNothingNewInTheWrittenBook(book: String, granularity: Granularity) throws {
        let source = try Self.bookURL(book)
        let output = Self.temporaryFile("check-\(granularity)-\(source.lastPathComponent)")
        defer { try? FileManager.default.removeItem(at: output) }
        try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init(narrators: ["raudio test voice"]))
            .write(try Self.narration(of: source, granularity: granularity), to: output)
        let before = try EPUBCheck.problems(in: source)
        let after = try EPUBCheck.problems(in: output)
        let new = after.filter { message in !before.contains { $0.code == message.code } }
        #expect(new.isEmpty, "EPUBCheck on \(book) written at \(granularity) granularity: \(new.map(\.description).joined(separator: "\n"))")
        print("EPUBCheck \(book) \(granularity): source \(before.count) messages, written \(after.count): \(after.map(\.description))")
    }

    /// In an SVG content document a word is wrapped in a `tspan` inside its `text`; a range that would split a
    /// `tspan` of the page, and text under `foreignObject`, get an `id` on their element instead; the stylesheet is
    /// an `xml-stylesheet` before the root, on the root's line (the document's line numbers stay).
    /// The last clip ends at the audio's length, never a millisecond rounding after it (30.5806 s was written
    /// 30.581, and raudio warned `clip-clamped` playing its own render); other values are the nearest millisecond.
    @Test func noClockValueIsWrittenPastTheAudiosEnd() throws {
        #expect(SMILDocumentWriter.clockValue(30.5806, notAfter: 30.5806) == "0:00:30.580")
        #expect(SMILDocumentWriter.clockValue(30.5806) == "0:00:30.581")
        #expect(SMILDocumentWriter.clockValue(12.3456, notAfter: 30.5806) == "0:00:12.346")
        #expect(SMILDocumentWriter.clockValue(31, notAfter: 30.5806) == "0:00:30.580")
        let duration = 30.5806
        let smil = SMILDocumentWriter.document(textReference: "c.xhtml", audioSource: "a.mp3",
                                               pars: [.init(textSource: "c.xhtml#s1", begin: 0, end: 12.3456), .init(textSource: "c.xhtml#s2", begin: 12.3456, end: duration)],
                                               duration: duration)
        let ends = smil.components(separatedBy: "clipEnd=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
            .compactMap { SMILClockValue.seconds(String($0)) }
        #expect(ends.count == 2)
        #expect(ends.allSatisfy { $0 <= duration }, "\(ends)")
        #expect(abs((ends.last ?? 0) - duration) < 0.001)
    }

    @Test func anSVGDocumentGetsTspansInItsTextAndIdsElsewhere() throws {
        let svg = """
            <?xml version="1.0"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"><text x="1" y="2">Call <tspan fill="red">me Ishmael</tspan></text>
            <foreignObject><h:p>Some years ago</h:p></foreignObject></svg>
            """
        let target = { (selector: String, text: String, range: Range<Int>) in Self.target("p.svg", selector, text, range) }
        var marker = try XHTMLNarrationMarker(data: Data(svg.utf8), href: "p.svg")
        let call = marker.mark(target("svg > text:nth-child(1)", "Call me Ishmael", 0..<4), serial: 1)
        let me = marker.mark(target("svg > text:nth-child(1)", "Call me Ishmael", 5..<7), serial: 2)
        let split = marker.mark(target("svg > text:nth-child(1)", "Call me Ishmael", 3..<7), serial: 3)
        let foreign = marker.mark(target("svg > foreignObject:nth-child(2) > p:nth-child(1)", "Some years ago", 0..<4), serial: 4)
        marker.linkStylesheet("raudio/media-overlay.css")
        #expect(marker.markings == [.span, .span, .elementID, .elementID])
        let written = String(decoding: marker.markedData(), as: UTF8.self)
        #expect(written.contains(#"<text x="1" y="2" id="\#(split)"><tspan id="\#(call)">Call</tspan> <tspan fill="red"><tspan id="\#(me)">me</tspan> Ishmael</tspan></text>"#), "\(written)")
        #expect(written.contains(#"<h:p id="\#(foreign)">Some years ago</h:p>"#), "\(written)")
        #expect(written.contains("<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"raudio/media-overlay.css\" type=\"text/css\"?><svg "), "\(written)")
        #expect(written.split(separator: "\n").count == svg.split(separator: "\n").count)
        _ = try XMLDocument(data: marker.markedData(), href: "p.svg")
    }

    /// A `textPath` may stand in `text`, not in a `tspan`: a sentence that holds one (with text around it) is marked
    /// by an id on the `text`; the text of the `textPath` itself gets its `tspan` inside it.
    @Test func anSVGTextPathIsNeverWrappedInATspan() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><path id="p" d="M0 0 L9 9"/>\
            <text>On <textPath xlink:href="#p">the curve</textPath> here</text></svg>
            """
        let target = { (range: Range<Int>) in Self.target("p.svg", "svg > text:nth-child(2)", "On the curve here", range) }
        var marker = try XHTMLNarrationMarker(data: Data(svg.utf8), href: "p.svg")
        let sentence = marker.mark(target(0..<17), serial: 1)
        let curve = marker.mark(target(3..<12), serial: 2)
        #expect(marker.markings == [.elementID, .span])
        let written = String(decoding: marker.markedData(), as: UTF8.self)
        #expect(written.contains(##"<text id="\##(sentence)">On <textPath xlink:href="#p"><tspan id="\##(curve)">the curve</tspan></textPath> here</text>"##),
                "\(written)")
        _ = try XMLDocument(data: marker.markedData(), href: "p.svg")
    }

    /// Text under an element that makes another vocabulary the default (CML in an `epub:switch` case, which a
    /// browser shows as text) gets a `span` that declares XHTML's namespace: unprefixed, it would be a CML `span`,
    /// which no stylesheet highlights. Elsewhere in the page, spans stay as they were.
    @Test func aSpanUnderAnotherDefaultNamespaceIsStillAnXHTMLSpan() throws {
        let xhtml = """
            <html xmlns="http://www.w3.org/1999/xhtml"><body><p>Water</p>\
            <chem xmlns="http://www.xml-cml.org/schema"><atom>H and O</atom></chem></body></html>
            """
        let target = { (selector: String, text: String, range: Range<Int>) in Self.target("c.xhtml", selector, text, range) }
        var marker = try XHTMLNarrationMarker(data: Data(xhtml.utf8), href: "c.xhtml")
        let water = marker.mark(target("html > body > p:nth-child(1)", "Water", 0..<5), serial: 1)
        let hydrogen = marker.mark(target("html > body > chem:nth-child(2) > atom:nth-child(1)", "H and O", 0..<1), serial: 2)
        #expect(marker.markings == [.span, .span])
        let written = String(decoding: marker.markedData(), as: UTF8.self)
        #expect(written.contains(#"<p><span id="\#(water)">Water</span></p>"#), "XHTML's own places need no declaration: \(written)")
        #expect(written.contains(#"<atom><span xmlns="http://www.w3.org/1999/xhtml" id="\#(hydrogen)">H</span> and O</atom>"#), "\(written)")
        let spans = try XMLDocument(data: marker.markedData(), href: "c.xhtml").root.descendants("span")
        #expect(spans.count == 2 && spans.allSatisfy { $0.namespaceURI == "http://www.w3.org/1999/xhtml" })
    }

    /// An SVG document whose root has a prefix: ids on the elements (no `tspan` of another namespace), and the
    /// stylesheet still linked before the root.
    @Test func aPrefixedSVGRootGetsIdsAndItsStylesheet() throws {
        let svg = #"<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:text>Hello there</s:text></s:svg>"#
        let target = Self.target("p.svg", "svg > text:nth-child(1)", "Hello there", 0..<5)
        var marker = try XHTMLNarrationMarker(data: Data(svg.utf8), href: "p.svg")
        let hello = marker.mark(target, serial: 1)
        marker.linkStylesheet("m.css")
        #expect(marker.markings == [.elementID])
        #expect(String(decoding: marker.markedData(), as: UTF8.self)
                == #"<?xml-stylesheet href="m.css" type="text/css"?><s:svg xmlns:s="http://www.w3.org/2000/svg"><s:text id="\#(hello)">Hello there</s:text></s:svg>"#)
    }

    /// An EPUB 2 document made EPUB 3's: the DOCTYPE (and its internal subset) becomes HTML5's, named references
    /// become numeric ones of the same characters, XML's five and the rest of the bytes stay.
    @Test func anEPUB2DocumentGetsHTML5sDoctypeAndNumericReferences() throws {
        let source = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd" [ <!ENTITY x "y"> ]>
            <html xmlns="http://www.w3.org/1999/xhtml"><body><p title="a&nbsp;b">Caf&eacute; &amp; &lt;tea&gt;&nbsp;&#233;</p></body></html>
            """
        let upgraded = try #require(MediaOverlayEPUBWriter.html5Document(Data(source.utf8)))
        #expect(String(decoding: upgraded, as: UTF8.self) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml"><body><p title="a&#xA0;b">Caf&#xE9; &amp; &lt;tea&gt;&#xA0;&#233;</p></body></html>
            """)
        #expect(MediaOverlayEPUBWriter.html5Document(upgraded) == nil, "an EPUB 3 document is left as it is")
    }

    /// A manifest item gets a property added to those it has, or a `properties` attribute of its own.
    @Test func aPropertyIsAddedToAManifestItem() throws {
        let package = """
            <package version="2.0"><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>
            <item id="b" href="b.xhtml" media-type="application/xhtml+xml" properties="mathml"></item></manifest></package>
            """
        var editor = try PackageDocumentEditor(data: Data(package.utf8), href: "p.opf")
        editor.addProperty("svg", toItem: "a")
        editor.addProperty("svg", toItem: "b")
        editor.addProperty("mathml", toItem: "b")
        #expect(String(decoding: editor.editedData(), as: UTF8.self) == """
            <package version="2.0"><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml" properties="svg"/>
            <item id="b" href="b.xhtml" media-type="application/xhtml+xml" properties="mathml svg"></item></manifest></package>
            """)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func twoWritesGiveTheSameBytes() throws {
        let source = try Self.bookURL("epub/idpf-epub3-samples/regime-anticancer-arabic.epub")
        let documents = try Self.narration(of: source, granularity: .word)
        let first = Self.temporaryFile("first.epub"), second = Self.temporaryFile("second.epub")
        defer { try? FileManager.default.removeItem(at: first); try? FileManager.default.removeItem(at: second) }
        try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init()).write(documents, to: first)
        try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init()).write(documents, to: second)
        let comparison = try ByteComparison(contentsOf: first, second)
        #expect(comparison.isSame, "\(comparison)")
        // mimetype first and stored.
        let bytes = [UInt8](try Data(contentsOf: first))
        #expect(bytes[8] == 0 && bytes[9] == 0 && String(decoding: bytes[30..<38], as: UTF8.self) == "mimetype")
    }

    @Test func aDocumentNotInTheBookIsAnErrorAndLeavesNoFile() throws {
        let source = Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")
        let output = Self.temporaryFile("missing.epub")
        let document = NarratedDocument(href: "EPUB/nowhere.xhtml", audioFile: Self.audio, audioMediaType: .mp3, duration: 1, clips: [])
        #expect {
            try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init()).write([document], to: output)
        } throws: { error in
            (error as? EPUBWriteError)?.code == .invalidNarration && (error as? EPUBWriteError)?.subject == "EPUB/nowhere.xhtml"
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anEPUB2BookComesOutAsEPUB3() throws {
        let source = try Self.bookURL("epub/readium-test-files/Tiny-2-NCX.epub")
        let output = Self.temporaryFile("epub2.epub")
        defer { try? FileManager.default.removeItem(at: output) }
        try MediaOverlayEPUBWriter(sourceEPUB: source, options: .init()).write(try Self.narration(of: source, granularity: .sentence), to: output)
        let publication = try TestEPUBOpener.open(output)
        #expect(!publication.readingOrder.isEmpty)
        #expect(Self.packageVersion(of: output) == "3.0")
    }

    static func packageVersion(of epub: URL) -> String? {
        guard let entries = try? entries(of: epub),
              let opf = entries.first(where: { $0.key.hasSuffix(".opf") })?.value,
              let document = try? XMLDocument(data: opf, href: "package.opf") else { return nil }
        return document.root.attribute("version")
    }

    /// Whether `written` is `original` with only raudio's markup inserted.
    /// A clip of `range` of `text`, the text of the element `selector` selects in the document at `href`.
    static func target(_ href: String, _ selector: String, _ text: String, _ range: Range<Int>) -> NarrationTarget {
        var locations = Locator.Locations()
        locations.cssSelector = selector
        return NarrationTarget(locator: Locator(href: href, type: href.hasSuffix(".svg") ? "image/svg+xml" : "application/xhtml+xml", locations: locations),
                               elementText: ElementText(text: text, quoteStart: 0), textRange: range)
    }

    static func isOriginalWithInsertions(original: [UInt8], written: [UInt8]) -> Bool {
        let inserted = [#"^<t?span id="raudio-s[0-9]+(-[0-9]+)?">"#, #"^<span xmlns="http://www\.w3\.org/1999/xhtml" id="raudio-s[0-9]+(-[0-9]+)?">"#, #"^ id="raudio-e[0-9]+(-[0-9]+)?""#,
                        #"^<link rel="stylesheet" type="text/css" href="[^"]*media-overlay\.css"/>"#,
                        #"^<\?xml-stylesheet href="[^"]*media-overlay\.css" type="text/css"\?>"#]
        let closes = [Array("</span>".utf8), Array("</tspan>".utf8)]
        var o = 0, w = 0
        while w < written.count {
            let rest = written[w] == UInt8(ascii: "<") || written[w] == UInt8(ascii: " ")
                ? String(decoding: written[w..<min(w + 300, written.count)], as: UTF8.self) : ""
            if !rest.isEmpty, let match = inserted.lazy.compactMap({ rest.range(of: $0, options: .regularExpression) }).first {
                w += rest.utf8.distance(from: rest.startIndex, to: match.upperBound)
            } else if let close = closes.first(where: { written[w...].starts(with: $0) }), !original[o...].starts(with: close) {
                w += close.count
            } else if o < original.count, original[o] == written[w] {
                o += 1; w += 1
            } else {
                return false
            }
        }
        return o == original.count
    }
}
