// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

/// The one error shape: a typed code, a subject, a message, a C status, a cause and where it was made.
@Suite struct RAudioErrorTests {
    @Test func descriptionNamesTheSubjectThenTheMessage() {
        #expect(ResourceError(.notFound, href: "a.mp3", message: "is not in the package").description == "a.mp3: is not in the package")
        #expect(ContentError(.contentUnsupported, href: "", message: "no text").description == "no text")
        #expect(HTTPError(.timedOut, url: "http://h/a.mp3", message: "the server stopped answering", libraryStatus: 28).description
            == "http://h/a.mp3: the server stopped answering")
    }

    @Test func codeWordsAreTheWireCodes() {
        #expect(ResourceError(.remoteUnreachable, href: "a", message: "m").codeName == "remote-unreachable")
        #expect(ContentError(.contentUnknownHref, href: "c.xhtml", message: "m").codeName == "content-unknown-href")
        #expect(HTTPError(.tls, url: "u", message: "m").errorName == "HTTPError")
    }

    @Test func equalityComparesWhatTheErrorSaysNotItsCauseOrPlace() {
        let bare = ResourceError(.remoteUnavailable, href: "a.mp3", message: "the server answered 503")
        let caused = ResourceError(.remoteUnavailable, href: "a.mp3", message: "the server answered 503",
                                   cause: HTTPError(.httpFailed, url: "http://h/a.mp3", message: "x"))
        #expect(bare == caused)
        #expect(bare.location != caused.location)
        #expect(bare != ResourceError(.remoteUnreachable, href: "a.mp3", message: "the server answered 503"))
    }

    @Test func locationIsWhereTheErrorWasMade() {
        let error = ResourceError(.io, href: "a", message: "m"); let line = #line
        #expect(error.location.line == line)
        #expect(error.location.file.hasSuffix("RAudioErrorTests.swift"))
        #expect(error.location.function.contains("locationIsWhereTheErrorWasMade"))
    }

    @Test func detailedDescriptionWalksTheCauseChain() {
        let http = HTTPError(.hostUnreachable, url: "http://h/b.ogg", message: "cannot connect to the server", libraryStatus: 7)
        let resource = ResourceError(.remoteUnreachable, href: "b.ogg", message: "cannot connect to the server", cause: http)
        let lines = resource.detailedDescription().split(separator: "\n").map(String.init)
        #expect(lines.first == "ResourceError remote-unreachable: b.ogg: cannot connect to the server")
        #expect(lines.contains { $0.hasPrefix("├─ at ") && $0.contains("RAudioErrorTests.swift") })
        #expect(lines.contains("└─ cause: HTTPError host-unreachable: http://h/b.ogg: cannot connect to the server"))
        #expect(lines.last?.hasPrefix("   └─ at ") == true, "\(lines)")
    }
}
