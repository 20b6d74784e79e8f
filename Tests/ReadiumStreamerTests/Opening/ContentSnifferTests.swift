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
        #expect(ContentSniffer.kind(of: Data([0xFE, 0xFF, 0x00, 0x41])) == .text)
        // UTF-16 little-endian: its byte order mark FF FE is also an MPEG frame sync; its text tells them apart.
        #expect(ContentSniffer.kind(of: Data([0xFF, 0xFE] + Array("Call me Ishmael.".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })) == .text)
        #expect(ContentSniffer.kind(of: Data([0xFF, 0xFE, 0x41, 0x00, 0x92, 0x37, 0x00, 0xA5, 0x10, 0x33, 0x00, 0x01])) == .audio(.mp3))
        #expect(ContentSniffer.kind(of: Data([0x41, 0x42, 0x00, 0x43])) == .other)
        #expect(ContentSniffer.kind(of: Data("text then \u{1B}[31m escape".utf8)) == .other)
        #expect(kind("{\"metadata\": {}}") == .json)
    }
}
