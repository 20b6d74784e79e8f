// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// ZIPs made at test time with Python's `zipfile`, some patched by hand to lie.
@Suite struct ZIPContainerSafetyTests {
    /// Writes `payload.bin` (the pattern bytes) both STORED and DEFLATED into `mixed.zip`.
    static func makeMixedZIP(in folder: TemporaryFolder, size: Int) throws -> Data {
        let bytes = patternBytes(count: size)
        try folder.write(bytes, to: "payload.bin")
        try folder.runPython("""
        import zipfile
        data = open('payload.bin', 'rb').read()
        with zipfile.ZipFile('mixed.zip', 'w') as z:
            z.writestr(zipfile.ZipInfo('dir/stored.bin'), data, compress_type=zipfile.ZIP_STORED)
            z.writestr(zipfile.ZipInfo('dir/deflated.bin'), data, compress_type=zipfile.ZIP_DEFLATED)
        """)
        return bytes
    }

    @Test func storedAndDeflatedRangesEqualSlicesOfTheWholeRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Self.makeMixedZIP(in: folder, size: 300_000)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("mixed.zip"))
        #expect(container.entries == ["dir/stored.bin", "dir/deflated.bin"])
        for href in container.entries {
            let resource = try container.resource(at: href)
            #expect(resource.isRandomAccessCheap == (href == "dir/stored.bin"))
            #expect(try resource.read() == bytes)
            for range: Range<UInt64> in [0..<10, 65_530..<65_600, 123_456..<234_567, 299_990..<400_000] {
                let end = min(Int(range.upperBound), bytes.count)
                #expect(try resource.read(range: range) == bytes[Int(range.lowerBound)..<end], "\(href) \(range)")
            }
        }
    }

    @Test func readIntoBufferGivesTheSameBytesAsRangedReadsAndStopsAtTheEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Self.makeMixedZIP(in: folder, size: 300_000)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("mixed.zip"))
        let resources: [any Resource] = try container.entries.map { try container.resource(at: $0) }
            + [FileResource(url: folder.url.appendingPathComponent("payload.bin"))]
        for resource in resources {
            for (offset, count) in [(0, 10), (65_530, 70_000), (299_990, 64), (300_000, 16), (400_000, 16)] {
                var buffer = [UInt8](repeating: 0xAA, count: count)
                let got = try buffer.withUnsafeMutableBytes { raw throws(ResourceError) in
                    try resource.read(into: raw, at: UInt64(offset))
                }
                let expected = bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)]
                #expect(got == expected.count, "\(resource.href) at \(offset)")
                #expect(Data(buffer[0..<got]) == Data(expected), "\(resource.href) at \(offset)")
            }
        }
    }

    @Test func largeDeflatedEntryIsReadInWindowsThatMatchTheWholeRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Self.makeMixedZIP(in: folder, size: 10 << 20)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("mixed.zip"))
        let resource = try container.resource(at: "dir/deflated.bin")
        // Sequential 1 MiB reads, as a decoder would do, then a backwards jump.
        var assembled = Data()
        var offset: UInt64 = 0
        while offset < UInt64(bytes.count) {
            assembled.append(try resource.read(range: offset..<offset + (1 << 20)))
            offset += 1 << 20
        }
        #expect(assembled == bytes)
        #expect(try resource.read(range: 1000..<2000) == bytes[1000..<2000])
    }

    @Test func entryInflatingPastItsDeclaredSizeIsTooLarge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 64 MiB of zeros declared as 1000 bytes, in both headers.
        try folder.runPython("""
        import zipfile, struct
        with zipfile.ZipFile('bomb.zip', 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('bomb.txt', b'\\0' * (64 << 20))
        raw = bytearray(open('bomb.zip', 'rb').read())
        struct.pack_into('<I', raw, 22, 1000)
        cd = raw.rfind(b'PK\\x01\\x02')
        struct.pack_into('<I', raw, cd + 24, 1000)
        open('bomb.zip', 'wb').write(raw)
        """)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("bomb.zip"))
        let resource = try container.resource(at: "bomb.txt")
        #expect(try resource.length() == 1000)
        let whole = caughtResourceError { try resource.read() }
        #expect(whole?.code == .tooLarge)
        #expect(whole?.href == "bomb.txt")
        // A range read inflates the (small) entry whole, so it meets the bomb too.
        #expect(caughtResourceError { try container.resource(at: "bomb.txt").read(range: 500..<1000) }?.code == .tooLarge)
    }

    @Test func entryDeclaringMoreThanTheLimitIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.runPython("""
        import zipfile, struct
        with zipfile.ZipFile('huge.zip', 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('huge.bin', b'x' * 1000)
        raw = bytearray(open('huge.zip', 'rb').read())
        cd = raw.rfind(b'PK\\x01\\x02')
        struct.pack_into('<I', raw, cd + 24, 0xF0000000)
        open('huge.zip', 'wb').write(raw)
        """)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("huge.zip"))
        let error = caughtResourceError { try container.resource(at: "huge.bin").read(range: 0..<10) }
        #expect(error?.code == .tooLarge)
    }

    @Test func crcMismatchIsBadDataOnAWholeRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Self.makeMixedZIP(in: folder, size: 5000)
        let url = folder.url.appendingPathComponent("mixed.zip")
        var raw = try Data(contentsOf: url)
        // Flip the CRC-32 of both central-directory records.
        var searchStart = raw.startIndex
        while let found = raw.range(of: Data([0x50, 0x4B, 0x01, 0x02]), in: searchStart..<raw.endIndex) {
            raw[found.lowerBound + 16] ^= 0xFF
            searchStart = found.upperBound
        }
        try raw.write(to: url)
        let container = try ZIPContainer(url: url)
        for href in container.entries {
            let error = caughtResourceError { try container.resource(at: href).read() }
            #expect(error?.code == .badData, "\(href)")
            #expect(error?.message.contains("CRC") == true)
            #expect(try container.resource(at: href).read(range: 0..<100) == bytes[0..<100])
        }
    }

    @Test func truncatedDeflateStreamIsBadDataNotAHang() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.makeMixedZIP(in: folder, size: 1 << 20)
        let url = folder.url.appendingPathComponent("mixed.zip")
        var raw = try Data(contentsOf: url)
        let records = [UInt8](raw)
        // Cut the DEFLATED entry (the second central-directory record) to exactly one 64 KiB inflate
        // chunk, so the stream ends mid-block at a chunk boundary. (A cut inside a chunk may instead
        // inflate garbage past the declared size: `.tooLarge`. Either way the read fails.)
        var cdOffsets: [Int] = []
        for index in 0..<(records.count - 4) where records[index..<index + 4] == [0x50, 0x4B, 0x01, 0x02] {
            cdOffsets.append(index)
        }
        let sizeOffset = cdOffsets[1] + 20
        let size = UInt32(records[sizeOffset]) | UInt32(records[sizeOffset + 1]) << 8 | UInt32(records[sizeOffset + 2]) << 16
        try #require(size > 65_536)
        let cut: UInt32 = 65_536
        for byte in 0..<4 { raw[sizeOffset + byte] = UInt8(truncatingIfNeeded: cut >> (8 * UInt32(byte))) }
        try raw.write(to: url)
        let container = try ZIPContainer(url: url)
        let error = caughtResourceError { try container.resource(at: "dir/deflated.bin").read() }
        #expect(error?.code == .badData)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func escapingAndAbsoluteEntryNamesAreNotAddressable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.runPython("""
        import zipfile
        with zipfile.ZipFile('evil.zip', 'w') as z:
            z.writestr(zipfile.ZipInfo('../evil.txt'), b'evil')
            z.writestr(zipfile.ZipInfo('a/../../evil2.txt'), b'evil')
            z.writestr(zipfile.ZipInfo('/abs.txt'), b'abs')
            z.writestr(zipfile.ZipInfo('good.txt'), b'good')
        """)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("evil.zip"))
        #expect(container.entries == ["good.txt"])
        #expect(container.warnings.count == 3)
        #expect(caughtResourceError { try container.resource(at: "../evil.txt") }?.code == .forbidden)
        #expect(caughtResourceError { try container.resource(at: "evil.txt") }?.code == .notFound)
        #expect(caughtResourceError { try container.resource(at: "/abs.txt") }?.code == .notFound)
        #expect(try container.resource(at: "good.txt").readString() == "good")
    }

    @Test func zipToolArchiveWithFoldersAndSpacesIsReadable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Data("one".utf8), to: "book/Disc 1/track 1.txt")
        try folder.write(patternBytes(count: 70_000), to: "book/Disc 1/track 2.bin")
        try folder.run("/usr/bin/env", ["zip", "-qr", "book.zip", "book"])
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("book.zip"))
        #expect(Set(container.entries) == ["book/Disc 1/track 1.txt", "book/Disc 1/track 2.bin"])
        #expect(try container.resource(at: "book/Disc%201/track%201.txt").readString() == "one")
        #expect(try container.resource(at: "book/Disc 1/track 2.bin").read() == patternBytes(count: 70_000))
    }

    @Test func entryWrittenWithADataDescriptorIsReadable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = patternBytes(count: 50_000)
        try folder.write(bytes, to: "payload.bin")
        // Python writes data descriptors (sizes after the data, zeros in the local header) to unseekable streams.
        try folder.runPython("""
        import zipfile, io
        class Unseekable(io.RawIOBase):
            def __init__(self, f): self.f = f
            def writable(self): return True
            def write(self, b): return self.f.write(b)
        with open('streamed.zip', 'wb') as out:
            with zipfile.ZipFile(Unseekable(out), 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open('streamed.bin', 'w') as entry:
                    entry.write(open('payload.bin', 'rb').read())
        """)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("streamed.zip"))
        let resource = try container.resource(at: "streamed.bin")
        #expect(try resource.read() == bytes)
        #expect(try resource.read(range: 40_000..<45_000) == bytes[40_000..<45_000])
    }

    @Test func eightThreadsReadingRangesOfOneResourceGetTheRightBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Just over the size that is cached whole, so threads keep replacing each other's window.
        let bytes = try Self.makeMixedZIP(in: folder, size: 9 << 20)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("mixed.zip"))
        for href in container.entries {
            let resource = try container.resource(at: href)
            let mismatches = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for step in 0..<2 {
                    let start = UInt64((thread * 1_234_567 + step * 2_345_678) % (bytes.count - 100_000))
                    let range = start..<start + 100_000
                    do {
                        let data = try resource.read(range: range)
                        if data != bytes[Int(range.lowerBound)..<Int(range.upperBound)] {
                            mismatches.withLock { $0.append("\(href) \(range): wrong bytes") }
                        }
                    } catch {
                        mismatches.withLock { $0.append("\(href) \(range): \(error)") }
                    }
                }
            }
            #expect(mismatches.withLock { $0 } == [])
        }
    }
}

@Suite struct ZIPContainerHostileOffsetTests {
    @Test func localHeaderOffsetBeyondTheFileIsBadDataNotACrash() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A ZIP64 extra field claiming a local header at 2^64 - 2, and another entry past the end of the file.
        try folder.runPython("""
        import zipfile, struct
        with zipfile.ZipFile('far.zip', 'w') as z:
            z.writestr('near.txt', b'near')
            z.writestr('far.txt', b'far')
        raw = bytearray(open('far.zip', 'rb').read())
        first = raw.find(b'PK\\x01\\x02')
        second = raw.find(b'PK\\x01\\x02', first + 4)
        struct.pack_into('<I', raw, first + 42, 0x7FFFFFF0)
        # Rewrite the second record with a ZIP64 extra carrying the offset.
        name_len = struct.unpack_from('<H', raw, second + 28)[0]
        struct.pack_into('<I', raw, second + 42, 0xFFFFFFFF)
        struct.pack_into('<H', raw, second + 30, 12)
        extra = struct.pack('<HHQ', 1, 8, 0xFFFFFFFFFFFFFFFE)
        end = raw.find(b'PK\\x05\\x06')
        raw[second + 46 + name_len:second + 46 + name_len] = extra
        end += len(extra)
        struct.pack_into('<I', raw, end + 12, struct.unpack_from('<I', raw, end + 12)[0] + len(extra))
        open('far.zip', 'wb').write(raw)
        """)
        let container = try ZIPContainer(url: folder.url.appendingPathComponent("far.zip"))
        #expect(container.entries == ["near.txt", "far.txt"])
        for href in container.entries {
            #expect(caughtResourceError { try container.resource(at: href).read() }?.code == .badData, "\(href)")
        }
    }
}
