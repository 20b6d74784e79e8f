// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A deflate bomb: a 1 MB EPUB whose second chapter inflates to 1 GiB (an honest declared size, a ratio
/// deflate can reach). Opening, listing or reading it refuses the chapter before inflating it, in a
/// few MB and well under a second of work.
@Suite(.serialized) struct SecurityZIPTests {
    static let bombSize = 1 << 30

    /// Writes the sample EPUB's entries to `folder/bomb.epub`, with `EPUB/chapter-2.xhtml` replaced by
    /// `bombSize` bytes of XHTML (mostly spaces), deflated as 1 MiB blocks repeated.
    static func makeBomb(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("bomb.epub").path
        let script = #"""
            import struct, sys, zipfile, zlib
            source, target, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
            def raw(data):
                c = zlib.compressobj(9, zlib.DEFLATED, -15)
                return c.compress(data) + c.flush(zlib.Z_FULL_FLUSH)
            entries = []
            with zipfile.ZipFile(source) as z:
                for info in z.infolist():
                    data = z.read(info.filename)
                    if info.filename == 'EPUB/chapter-2.xhtml':
                        head = b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>'
                        block = b' ' * (1 << 20)
                        count = (size - len(head)) // len(block)
                        tail = b' ' * (size - len(head) - count * len(block))
                        compressed_block = raw(block)
                        stream = raw(head) + compressed_block * count + raw(tail) + b'\x03\x00'
                        crc = zlib.crc32(head)
                        for _ in range(count): crc = zlib.crc32(block, crc)
                        crc = zlib.crc32(tail, crc)
                        entries.append((info.filename, stream, crc & 0xFFFFFFFF, size, 8))
                    elif info.filename == 'mimetype':
                        entries.append((info.filename, data, zlib.crc32(data) & 0xFFFFFFFF, len(data), 0))
                    else:
                        stream = raw(data) + b'\x03\x00'
                        entries.append((info.filename, stream, zlib.crc32(data) & 0xFFFFFFFF, len(data), 8))
            out, central = bytearray(), bytearray()
            for name, stream, crc, length, method in entries:
                offset = len(out)
                n = name.encode()
                out += struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, method, 0, 0x21, crc, len(stream), length, len(n), 0) + n + stream
                central += struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, method, 0, 0x21, crc, len(stream), length, len(n), 0, 0, 0, 0, 0, offset) + n
            start = len(out)
            out += central + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, len(entries), len(entries), len(central), start, 0)
            open(target, 'wb').write(out)
            """#
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                           ["-c", script, SpeakCommandTests.sampleEPUB, path, String(bombSize)], timeout: 60)
        try #require(result.status == 0, "\(result.standardError)")
        return path
    }

    /// Runs raudio `arguments` under a Python parent that reports the child's peak RSS (kB) and time.
    static func measured(_ arguments: [String]) throws -> (status: Int32, peakKilobytes: Int, seconds: Double, standardError: String) {
        let script = """
            import resource, subprocess, sys, time
            started = time.monotonic()
            run = subprocess.run(sys.argv[1:], capture_output=True, timeout=120)
            sys.stderr.write(run.stderr.decode(errors='replace'))
            print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.monotonic() - started)
            """
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                           ["-c", script, ProcessRunner.raudioExecutable.path] + arguments, timeout: 150)
        let fields = result.standardOutput.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, let status = Int32(fields[0]), let peak = Int(fields[1]), let seconds = Double(fields[2]) else {
            throw IPCTestClient.Failure(description: "no measurement: \(result.standardOutput) \(result.standardError)")
        }
        return (status, peak, seconds, result.standardError)
    }

    @Test func aChapterThatInflatesTo1GiBIsRefusedBeforeInflating() throws {
        let folder = try TemporaryDirectory()
        let bomb = try Self.makeBomb(in: folder.url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb)[.size] as? Int)
        #expect(size < 2 << 20, "the bomb is \(size) bytes")
        let container = try ZIPContainer(url: URL(fileURLWithPath: bomb))
        let chapter = try container.resource(at: "EPUB/chapter-2.xhtml")
        #expect(try chapter.length() == UInt64(Self.bombSize))
        #expect(throws: ResourceError.self) { try chapter.read(maximumSize: 32 << 20) }
        for arguments in [["text", bomb], ["info", bomb]] {
            let run = try Self.measured(arguments)
            print("SecurityZIPTests: raudio \(arguments[0]) of a \(size >> 10) KiB EPUB with a 1 GiB chapter: exit \(run.status), peak RSS \(run.peakKilobytes / 1024) MB, \(String(format: "%.2f", run.seconds)) s")
            #expect(run.peakKilobytes < 100 * 1024, "\(arguments[0]): peak RSS \(run.peakKilobytes / 1024) MB")
            #expect(run.seconds < 5, "\(arguments[0]): \(run.seconds) s")
            #expect(run.status == 0, "\(arguments[0]): the rest of the book is usable: \(run.standardError.prefix(600))")
            if arguments[0] == "text" {
                #expect(run.standardError.contains("EPUB/chapter-2.xhtml"), "the refused chapter is named: \(run.standardError.prefix(600))")
            }
        }
    }
}
