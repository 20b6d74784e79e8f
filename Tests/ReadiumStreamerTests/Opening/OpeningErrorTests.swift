// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer
import Testing

/// A publication that cannot be opened says why in the opener's terms and keeps the error under it.
@Suite struct OpeningErrorTests {
    @Test func anOpeningErrorKeepsTheResourceErrorItWasMadeFrom() {
        let resource = ResourceError(.remoteUnreachable, href: "http://h/book.json", message: "cannot connect to the server")
        let opening = OpeningError(resource)
        #expect(opening.code == .publicationUnavailable)
        #expect(opening.description == "http://h/book.json: cannot connect to the server")
        #expect(opening.cause as? ResourceError == resource)
        #expect(opening.detailedDescription().contains("└─ cause: ResourceError remote-unreachable: http://h/book.json: cannot connect to the server"))
    }

    @Test func aMissingFileIsNotFoundNamingItsPath() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-missing-\(UUID().uuidString).epub")
        #expect {
            _ = try PublicationOpener().open(url: missing)
        } throws: { error in
            (error as? OpeningError)?.code == .notFound && (error as? OpeningError)?.path == missing.path
        }
    }
}
