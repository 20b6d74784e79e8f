// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

@testable import ReadiumStreamer

/// Inputs that crashed a parser under `make fuzz`, kept so the crash cannot come back.
///
/// All found so far share one cause: a document declaring an encoding libxml2 switches to through
/// iconv (`UTF-7`, or an unknown name such as `UTF.8`) followed by invalid bytes made
/// `xmlParseChunk` read through a null pointer (SIGSEGV). `XMLPreprocessor` now hands libxml2 UTF-8 only.
@Suite("Fuzz regressions: declared XML encodings")
struct XMLEncodingFuzzRegressionTests {
    // Computed, not stored: a `Data` kept in a global is reported by LeakSanitizer (its storage
    // reference is not seen through Data's packed representation).

    /// The navigation document libFuzzer found (`raudio-fuzz nav`), as it was.
    static var navigationCrash: Data { Data(base64Encoded: """
        PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLjgiPz4NCjwhRE9DVFlQRSBodG1sPg0KPGh0bWwgeG1sbnM9Imh0
        dHA6Ly93d3cudj4NCiAgPC9zZWN0aW9uPg0KPC9ib2R5Pg0KPC9odG1sPg0gPHNlY3Rpb24gY2xqampqampqampqampqampq
        ampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampqampq
        ampqampqampqampqampqampqampqampqamphc3M9ImJhc2UiIGlkPSJ0b2MiPg0KICAgIDxoMT5TZWN0aW9uIFRpdGxlPC9o
        MT4NCiAgICA8bmF2IGVwdWI6dHlwZT0idG9jIj4NCiAgICAgIDxoMj5UYWJsZSBvZiBDb250ZW50czwvaDI+DQogICAgICA8
        b2w+DQogICAgICAgIDxsaT48YSBocmVmPSJjaGFwdGVyMS54aHRtbCI+Q2hhcHRlciAxPC9hPjwvbGk+DQogICAgICA8L29s
        Pg0KICAgIDwvbmF2Pg0KICA8L////////wEODXBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBw
        cHBwcHAKPC9ib2R5Pg0KPC9odG1sPg0K
        """, options: .ignoreUnknownCharacters)! }

    /// The SMIL document libFuzzer found (`raudio-fuzz smil`), as it was.
    static var smilCrash: Data { Data(base64Encoded: """
        PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0idXRmLTciPz4KPHNtaWwgeG1sbnM9Imh0dHA6Ly93d3cudzMub3JnL25z
        L1NNSUwiIHhtbG5zOmVwdWI9Imh0dHA6Ly93d3cuaWRwZi5vcmcvMjAwNy9vcHMiIHZlcnNpb249IjMuMCI+CiAgPGJvZHk+
        CiAgICA8c2VxIGlkPSJzMSIgZXB1YmQ9InNlY29uZCI+CiAgICAgICAgICAgICAgICA8dGV4dCBzcmM9Ii4uL21vYnlkaWNr
        LnhodG1sI3NlY29uZCIvPgogICAgICAgICAgICA8L3Bhcj4KCiAgICAgICAgICAgIDxwYXIgaWQ9InToaXJkIj4KICAgICAg
        ICAgICAgICAgIDx0ZXh0IHNyYz0iLi4vbW9ieWRpY2sueGh0bWwjdGhpcmQiLz4gICAgICAgICAgICAgIDx0ZXh0IHNyYz0i
        Li4vbW9ieWRpY2sueGh0bWwjdGhpcmQiLz4KICAgICAgICAgICAgPC9wYQAAAAAAAAL1ICAgICAgICA8cGFyIGlkPSJmb3Vy
        dGgiPgogICAgICAgICAgICAgICAgPHRleHQgc3JjPSIuLi9tb2J5ZGljazoueHRleHRyZWY9ImNoYXB0ZXIwMC4neGh0bWwi
        PgogICAgICA8IS0tIHBhciB3aXRoIGJvdGggYXVkaW8gYW5kIHZpZGVvIC0tPgogICAgICA8cGFyIGlkPgoKICAgICAgICAg
        ICAgPHBhciBpZD0iZm91cnRoIj4KICAgICAgICAgICAgICAgIDx0ZXh0IHNyYz4KPC9zbWlsPgo=
        """, options: .ignoreUnknownCharacters)! }

    /// The navigation crash reduced by delta debugging, and the UTF-7 form of the NCX and SMIL crashes.
    static var minimalCrashes: [Data] { [
        Data(#"<?xml version="1.0" encoding="UTF.8""#.utf8) + Data([0xFF]),
        Data(#"<?xml version="1.0" encoding="UTF-7"?>"#.utf8) + Data([0xFF]),
        Data(#"<?xml version="1.0" encoding="utf-7"?><a>"#.utf8) + Data([0xFF, 0xFE, 0x00]) + Data("</a>".utf8),
    ] }

    @Test(arguments: [XMLDocument.Mode.strict, .recovering])
    func unreadableDeclaredEncodingIsAnEncodingErrorNotACrash(mode: XMLDocument.Mode) {
        for data in Self.minimalCrashes + [Self.navigationCrash, Self.smilCrash] {
            #expect {
                _ = try XMLDocument(data: data, href: "OEBPS/fuzz.xhtml", mode: mode)
            } throws: { error in
                (error as? XMLError)?.code == .xmlEncoding && "\(error)".contains("OEBPS/fuzz.xhtml")
            }
        }
    }

    @Test func smilParserRefusesTheFuzzedDocumentWithAMessage() {
        #expect {
            _ = try SMILParser.parse(Self.smilCrash, href: "OEBPS/chapter.smil")
        } throws: { error in
            "\(error)".contains("chapter.smil")
        }
    }

    @Test func mislabelledUTF8DocumentIsReadAsUTF8() throws {
        let data = Data(#"<?xml version="1.0" encoding="UTF-7"?><a>café +AGE-</a>"#.utf8)
        let document = try XMLDocument(data: data, href: "a.xhtml")
        #expect(document.root.textContent == "café +AGE-")
    }

    @Test func latin1DocumentIsTranscoded() throws {
        let data = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><a>caf"#.utf8) + Data([0xE9]) + Data("</a>".utf8)
        #expect(try XMLDocument(data: data, href: "a.xhtml").root.textContent == "café")
    }

    @Test func encodingOfAnUnclosedDeclarationIsFound() {
        let bytes = Array(#"<?xml version="1.0" encoding = 'UTF.8' "#.utf8)
        let range = XMLPreprocessor.declaredEncodingRange(bytes)
        #expect(range.map { String(decoding: bytes[$0], as: UTF8.self) } == "UTF.8")
    }
}
