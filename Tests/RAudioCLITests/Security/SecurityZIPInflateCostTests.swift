// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A small EPUB declaring a 256 MiB DEFLATED resource (issue 51: each GET of it cost 26.5 s of CPU, every
/// 4 MiB window inflated from the start of the entry, and `Range: bytes=-100` 0.8 s): the page server
/// streams the whole resource and a suffix of it for at most 5 s of CPU each, measured on the raudio child.
@Suite(.serialized) struct SecurityZIPInflateCostTests {
    static let bigSize = 256 << 20

    /// The sample EPUB with `EPUB/big.bin` (256 MiB, nearly all zeros, deflated) declared in its package.
    static func makeBook(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("big-resource.epub").path
        // The entry is written 1 MiB at a time, each MiB's first 16 bytes its number (every window differs).
        let writer = #"""
            import sys, zipfile, zlib
            source, target, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
            with zipfile.ZipFile(source) as z, zipfile.ZipFile(target, 'w') as out:
                for info in z.infolist():
                    data = z.read(info.filename)
                    if info.filename == 'EPUB/package.opf':
                        data = data.replace(b'</manifest>', b'<item id="big" href="big.bin" media-type="application/octet-stream"/></manifest>')
                    out.writestr(info.filename, data, zipfile.ZIP_STORED if info.filename == 'mimetype' else zipfile.ZIP_DEFLATED)
                info = zipfile.ZipInfo('EPUB/big.bin', (2024, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                block = bytearray(1 << 20)
                with out.open(info, 'w') as big:
                    for i in range(size >> 20):
                        block[0:16] = i.to_bytes(16, 'big')
                        big.write(block)
            """#
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                           ["-c", writer, SpeakCommandTests.sampleEPUB, path, String(bigSize)], timeout: 120)
        try #require(result.status == 0, "\(result.standardError)")
        return path
    }

    /// CPU seconds (user + system) the process has used so far, from /proc/PID/stat.
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = text[text.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(fields[11])! + Double(fields[12])!) / ticks
    }

    /// GETs `path` with `headers`, reading and dropping the body; returns the status and the body's size.
    static func fetch(_ path: String, port: Int, headers: [String] = []) throws -> (status: Int, bytes: Int, tail: [UInt8]) {
        let client = try IPCTestClient(tcpPort: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for header in headers { request += header + "\r\n" }
        guard client.write(Array((request + "\r\n").utf8)) else { throw IPCTestClient.Failure(description: "the request could not be sent") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(client.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var bodyBytes = 0
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var headEnd: Int?
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw IPCTestClient.Failure(description: "the answer did not end (errno \(errno))") }
            if count == 0 { break }
            var piece = buffer[0..<count]
            if headEnd == nil {
                head += piece
                guard let range = head.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                headEnd = range.upperBound
                piece = ArraySlice(head[range.upperBound...])
            }
            bodyBytes += piece.count
            tail = Array((tail + piece).suffix(100))
        }
        let statusLine = String(decoding: head.prefix(40), as: UTF8.self)
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, bodyBytes, tail)
    }

    @Test func aLargeDeflatedResourceCostsABoundedCPUPerRequest() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.makeBook(in: folder.url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: book)[.size] as? Int)
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", book, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris", "--web"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        #expect(running.waitForLine(timeout: 20) { IPCTests.type($0, "listening") }, "\(running.standardError)")
        let listening = try PlayCommandTests.object(try #require(running.outputLines.first { IPCTests.type($0, "listening") }))
        let port = try IPCTests.port(of: try #require(listening["address"]?.stringValue))
        let pid = running.process.processIdentifier
        running.send("pause\n")  // the book must not end (and raudio with it) while the resource is served

        var before = try Self.cpuSeconds(of: pid)
        let whole = try Self.fetch("/publication/EPUB/big.bin", port: port)
        let wholeCPU = try Self.cpuSeconds(of: pid) - before
        before = try Self.cpuSeconds(of: pid)
        let suffix = try Self.fetch("/publication/EPUB/big.bin", port: port, headers: ["Range: bytes=-100"])
        let suffixCPU = try Self.cpuSeconds(of: pid) - before
        print("SecurityZIPInflateCostTests: a \(size >> 10) KiB EPUB with a 256 MiB deflated resource: whole GET \(whole.bytes) bytes in \(String(format: "%.2f", wholeCPU)) s of CPU, bytes=-100 in \(String(format: "%.2f", suffixCPU)) s")
        #expect(whole.status == 200 && whole.bytes == Self.bigSize, "\(whole.status), \(whole.bytes) bytes")
        #expect(suffix.status == 206 && suffix.bytes == 100 && suffix.tail == [UInt8](repeating: 0, count: 100), "\(suffix.status), \(suffix.bytes) bytes")
        #expect(wholeCPU <= 5, "the whole resource cost \(wholeCPU) s of CPU")
        #expect(suffixCPU <= 5, "a suffix range cost \(suffixCPU) s of CPU")
    }
}
