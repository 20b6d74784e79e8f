// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// Read sessions give the bytes the resource gives, keep one descriptor open while they live, and
/// close it when released.
@Suite(.serialized) struct ResourceReadSessionTests {
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    static func read(_ session: any ResourceReadSession, at offset: UInt64, count: Int) throws -> Data {
        var buffer = Data(count: count)
        let got = try buffer.withUnsafeMutableBytes { try session.read(into: $0, at: offset) }
        return buffer.prefix(got)
    }

    @Test func everyResourceKindReadsTheSameBytesThroughASession() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try ZIPContainerSafetyTests.makeMixedZIP(in: folder, size: 300_000)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("mixed.zip"))
        let resources: [any Resource] = [
            FileResource(url: folder.url.appendingPathComponent("payload.bin")),
            try container.resource(at: "dir/stored.bin"),
            try container.resource(at: "dir/deflated.bin"),
        ]
        for resource in resources {
            let session = try resource.openReadSession()
            for (offset, count) in [(0, 10), (65_530, 70), (123_456, 111_111), (299_990, 100), (400_000, 10)] {
                let expected = offset < bytes.count ? bytes[offset..<min(offset + count, bytes.count)] : Data()
                #expect(try Self.read(session, at: UInt64(offset), count: count) == expected, "\(resource.href) at \(offset)")
            }
        }
    }

    @Test func aFileSessionHoldsOneDescriptorUntilReleased() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = try folder.write(Data(repeating: 7, count: 200_000), to: "file.bin")
        let before = Self.openDescriptors()
        var session: (any ResourceReadSession)? = try FileResource(url: url).openReadSession()
        for block in 0..<3 { _ = try Self.read(session!, at: UInt64(block * 65_536), count: 65_536) }
        #expect(Self.openDescriptors() == before + 1)
        session = nil
        #expect(Self.openDescriptors() == before)
    }

    @Test func aMissingFileFailsWhenTheSessionOpensNamingIt() throws {
        let missing = FileResource(url: URL(fileURLWithPath: "/nonexistent/raudio/track.mp3"))
        #expect { _ = try missing.openReadSession() } throws: { error in
            guard let error = error as? ResourceError else { return false }
            return error.code == .notFound && error.href == "track.mp3"
        }
    }
}
