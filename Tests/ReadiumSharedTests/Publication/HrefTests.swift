// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

@Suite struct HrefTests {
    @Test func dotDotSegmentsCollapseInsideTheRoot() throws {
        #expect(try Href("chapter1/../track.mp3").path == "track.mp3")
        #expect(try Href("./a").path == "a")
        #expect(try Href("a//b/./c").path == "a/b/c")
    }

    @Test func leadingSlashIsRootedAtTheContainer() throws {
        #expect(try Href("/a/b.mp3", relativeTo: "x/y/z.html").path == "a/b.mp3")
    }

    @Test func relativeHrefResolvesAgainstTheFolderOfTheBase() throws {
        #expect(try Href("track.mp3", relativeTo: "audio/index.html").path == "audio/track.mp3")
        #expect(try Href("../cover.jpg", relativeTo: "audio/index.html").path == "cover.jpg")
        #expect(try Href("track.mp3", relativeTo: "manifest.json").path == "track.mp3")
    }

    @Test func fragmentAndQueryAreSplitOff() throws {
        let href = try Href("track.mp3#t=30")
        #expect(href.path == "track.mp3")
        #expect(href.fragment == "t=30")
        #expect(href.query == nil)
        let withQuery = try Href("a/b.xhtml?x=1#p2")
        #expect(withQuery.path == "a/b.xhtml")
        #expect(withQuery.query == "x=1")
        #expect(withQuery.fragment == "p2")
    }

    @Test func fragmentOnlyDesignatesTheBase() throws {
        let href = try Href("#t=12", relativeTo: "audio/track1.mp3")
        #expect(href.path == "audio/track1.mp3")
        #expect(href.fragment == "t=12")
    }

    @Test func percentEscapesAreDecodedAndReencoded() throws {
        let href = try Href("Test%20Audiobook/sp%C3%A9cial.mp3")
        #expect(href.path == "Test Audiobook/spécial.mp3")
        #expect(href.string == "Test%20Audiobook/sp%C3%A9cial.mp3")
        #expect(try Href("100%.mp3").path == "100%.mp3")
        #expect(try Href("a%2Fb.mp3", decodingPercentEscapes: false).path == "a%2Fb.mp3")
    }

    @Test(arguments: ["../../etc/passwd", "../x", "a/../../x", "%2E%2E/secret", "a/%2e%2e/%2e%2e/x"])
    func escapesAreForbidden(_ string: String) {
        let error = caughtResourceError { try Href(string) }
        #expect(error?.code == .forbidden)
        #expect(error?.href == string)
    }

    @Test func escapeFromTheBaseFolderIsForbidden() {
        #expect(caughtResourceError { try Href("../../x", relativeTo: "a/b.html") }?.code == .forbidden)
    }

    @Test(arguments: ["http://example.com/a.mp3", "HTTPS://example.com/a.mp3"])
    func remoteHrefsAreReportedAsRemote(_ string: String) {
        let error = caughtResourceError { try Href(string) }
        #expect(error?.code == .remote)
        #expect(error?.message.contains("is a remote URL") == true)
        #expect(Href.isRemote(string))
    }

    @Test func otherSchemesAreForbiddenAndPlainPathsAreNotRemote() {
        #expect(caughtResourceError { try Href("file:///etc/passwd") }?.code == .forbidden)
        #expect(!Href.isRemote("audio/http.mp3"))
        #expect(Href.scheme(of: "a/b:c") == nil)
    }

    @Test func aSchemeIsAnASCIILetterThenLettersDigitsPlusMinusOrDotBeforeTheFirstColon() {
        #expect(Href.scheme(of: "X-Custom+v1.2:thing") == "x-custom+v1.2")
        #expect(Href.scheme(of: "urn:isbn:123") == "urn")
        #expect(Href.scheme(of: "1http://x") == nil)
        #expect(Href.scheme(of: ":x") == nil)
        #expect(Href.scheme(of: "é:x") == nil)
        #expect(Href.scheme(of: "ab_c:x") == nil)
        #expect(Href.scheme(of: "chapter 1:intro.xhtml") == nil)
        // A colon carrying a combining mark is not a colon character: no scheme, the href is a path.
        #expect(Href.scheme(of: "abc:\u{301}x") == nil)
        #expect((try? Href("abc:\u{301}x"))?.path == "abc:\u{301}x")
    }

    @Test func marksCarryingACombiningMarkDoNotSplitTheHref() throws {
        let hash = try Href("a#\u{301}b.xhtml")
        #expect(hash.path == "a#\u{301}b.xhtml")
        #expect(hash.fragment == nil)
        let question = try Href("a?\u{301}b#c")
        #expect(question.path == "a?\u{301}b")
        #expect(question.query == nil)
        #expect(question.fragment == "c")
        let ascii = try Href("text/ch01.xhtml?x=1?y#f#g", relativeTo: "OEBPS/content.opf")
        #expect(ascii.path == "OEBPS/text/ch01.xhtml")
        #expect(ascii.query == "x=1?y")
        #expect(ascii.fragment == "f#g")
    }
}
