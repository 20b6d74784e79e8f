// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@Suite struct FileResourceTests {
    @Test func rangesEqualSlicesOfTheWholeFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = patternBytes(count: 100_000)
        let url = try folder.write(bytes, to: "a.bin")
        let resource = FileResource(url: url)
        #expect(resource.href == "a.bin")
        #expect(try resource.length() == 100_000)
        #expect(try resource.read() == bytes)
        #expect(try resource.read(range: 10..<20) == bytes[10..<20])
        #expect(try resource.read(range: 99_990..<200_000) == bytes[99_990...])
        #expect(try resource.read(range: 200_000..<300_000).isEmpty)
    }

    @Test func missingFileIsNotFound() {
        let resource = FileResource(url: URL(fileURLWithPath: "/nonexistent/raudio/x.mp3"))
        #expect(caughtResourceError { try resource.read() }?.code == .notFound)
        #expect(caughtResourceError { try resource.length() }?.code == .notFound)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func corpusFileReadsLikeFoundation() throws {
        let url = try Corpus.file("readium/swift-toolkit/StreamerTests/Fixtures/audiotest/Test Audiobook/Latin.mp3")
        let expected = try Data(contentsOf: url)
        let resource = FileResource(url: url)
        #expect(try resource.length() == UInt64(expected.count))
        #expect(try resource.read(range: 1000..<5000) == expected[1000..<5000])
    }
}
