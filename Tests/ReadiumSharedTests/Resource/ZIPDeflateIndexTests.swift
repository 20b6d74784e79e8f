// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// Ranges of a large DEFLATED entry are inflated from the checkpoint before them (`DeflateIndex`), and
/// return the same bytes as the whole entry read at once, wherever they start and in whatever order.
@Suite(.serialized) struct ZIPDeflateIndexTests {
    /// A ZIP whose `big.bin` is 24 MiB of text-like bytes (many deflate blocks, some of them stored), and
    /// the bytes themselves.
    static func makeArchive(in folder: TemporaryFolder) throws -> (URL, Data) {
        try folder.runPython("""
            import random, zipfile
            r = random.Random(51)
            words = [bytes(r.choice(b'abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 9))) for _ in range(3000)]
            parts, size = [], 0
            while size < 24 << 20:
                part = r.randbytes(4096) if r.random() < 0.02 else b' '.join(r.choice(words) for _ in range(400)) + b'.\\n'
                parts.append(part); size += len(part)
            data = b''.join(parts)[:24 << 20]
            open('big.raw', 'wb').write(data)
            with zipfile.ZipFile('book.zip', 'w', zipfile.ZIP_DEFLATED, compresslevel=6) as z:
                z.writestr('big.bin', data)
            """)
        return (folder.url.appendingPathComponent("book.zip"), try Data(contentsOf: folder.url.appendingPathComponent("big.raw")))
    }

    @Test func rangesAtRandomOffsetsMatchTheWholeEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (archive, whole) = try Self.makeArchive(in: folder)
        let container = try ZIPContainer(url: archive)
        var generator = SystemRandomNumberGenerator()
        let shared = try container.resource(at: "big.bin")
        #expect(try shared.length() == UInt64(whole.count))
        for round in 0..<40 {
            // Every other read on a fresh resource (no checkpoints yet), the others on one that keeps them.
            let resource = round % 2 == 0 ? shared : try container.resource(at: "big.bin")
            let start = UInt64.random(in: 0..<UInt64(whole.count), using: &generator)
            let count = UInt64.random(in: 1...(6 << 20), using: &generator)
            let range = start..<min(UInt64(whole.count), start + count)
            let read = try resource.read(range: range)
            #expect(read == whole.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)), "round \(round): \(range)")
        }
        // The end, read backwards in 64 KiB pieces as a player seeking back does.
        var offset = UInt64(whole.count)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        for _ in 0..<40 {
            offset -= 300_001
            let got = try buffer.withUnsafeMutableBytes { try shared.read(into: $0, at: offset) }
            #expect(Data(buffer[0..<got]) == whole.subdata(in: Int(offset)..<Int(offset) + got), "at \(offset)")
        }
    }

    @Test func aTruncatedStreamFarInIsRefusedAsBadData() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (archive, _) = try Self.makeArchive(in: folder)
        // Cut the archive's deflate stream at half: the central directory is rewritten by zipfile, so instead
        // the compressed bytes are zeroed from the middle on (a corrupt stream, sizes unchanged).
        var bytes = try Data(contentsOf: archive)
        let middle = bytes.count / 2
        bytes.replaceSubrange(middle..<(middle + 1 << 20), with: Data(count: 1 << 20))
        try bytes.write(to: archive)
        let container = try ZIPContainer(url: archive)
        let resource = try container.resource(at: "big.bin")
        #expect(throws: ResourceError.self) { try resource.read(range: (20 << 20)..<((20 << 20) + 100)) }
    }
}
