// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

@testable import ReadiumStreamer

struct ContentSnifferTests {
    func kind(_ text: String) -> ContentSniffer.Kind { ContentSniffer.kind(of: Data(text.utf8)) }

    @Test func htmlIsRecognizedAfterADeclarationCommentsAndSpace() {
        #expect(kind("<!DOCTYPE html><html><body/></html>") == .html)
        #expect(kind("\u{FEFF}\n  <?xml version=\"1.0\"?>\n<!-- made by hand -->\n<HTML lang=\"en\">") == .html)
        #expect(kind("<html>") == .html)
        #expect(kind("<htmlx>not html</htmlx>") == .text)
        #expect(kind("<!-- never closed <html>") == .text)
    }

    @Test func textIsRecognizedAndBinaryIsNot() {
        #expect(kind("Call me Ishmael.\r\n\tSome years ago.\u{0C}") == .text)
        #expect(kind("Ünïcödé tëxt, 日本語") == .text)
        #expect(ContentSniffer.kind(of: Data([0xFE, 0xFF, 0x00, 0x41])) == .text)  // UTF-16 BE (FF FE, little-endian, is an MPEG frame sync)
        #expect(ContentSniffer.kind(of: Data([0x41, 0x42, 0x00, 0x43])) == .other)
        #expect(ContentSniffer.kind(of: Data("text then \u{1B}[31m escape".utf8)) == .other)
        #expect(kind("{\"metadata\": {}}") == .json)
    }
}
