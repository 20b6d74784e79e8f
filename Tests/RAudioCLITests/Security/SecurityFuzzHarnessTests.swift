// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioTestSupport
import ReadiumShared
import Testing

/// The `websocket` and `http` fuzz targets' harness, run over hand-made inputs and a few hundred
/// deterministic mutations of them: a short fuzzing pass in every test run (`make fuzz` runs libFuzzer).
@Suite struct SecurityFuzzHarnessTests {
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        SecurityIPCTests.frame(opcode: opcode, payload, fin: fin, masked: masked)
    }

    static let upgrade = Array(("GET /ws?token=fuzz-token HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

    static let webSocketInputs: [[UInt8]] = [
        frame(0x1, Array(#"{"command":"status","id":1}"#.utf8)),
        frame(0x1, Array("{\"command\":\"sta".utf8), fin: false) + frame(0x0, Array("tus\"}".utf8)),
        frame(0x9, Array("ping".utf8)) + frame(0x8, [0x03, 0xE8] + Array("bye".utf8)),
        frame(0x1, Array("pause".utf8), masked: false), frame(0x3, [1]), frame(0x1, [0xC3, 0x28]), frame(0x8, [0x00, 0x05]),
        [0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x89, 0xFE, 0x01, 0x00],
    ]

    static let httpInputs: [[UInt8]] = [
        upgrade + webSocketInputs[0] + webSocketInputs[2],
        Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:9\r\nOrigin: http://evil.example\r\n\r\n".utf8),
        Array("GET /publication/x HTTP/1.1\r\nHost: 127.0.0.1:9\r\nRange: bytes=5-1\r\nSec-Fetch-Site: none\r\n\r\n".utf8),
        Array("POST / HTTP/1.1\r\nHost: 127.0.0.1:9\r\nContent-Length: 5\r\n\r\nhello".utf8),
        Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUpgrade: websocket\r\nSec-WebSocket-Key: x\r\n\r\n".utf8),
        Array("bytes=-500".utf8), Array("\r\n\r\n\u{0}GET".utf8),
    ]

    /// `input` with a few bytes changed, inserted or removed, chosen by `generator`.
    static func mutated(_ input: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + Int(generator.next() % 4)) {
            let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
            switch generator.next() % 3 {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
            default: if !bytes.isEmpty { bytes.remove(at: position) }
            }
        }
        return bytes
    }

    @Test func theHarnessDrivesTheRealHandlers() {
        let good = IPCFuzzHarness.webSocket(Data(Self.webSocketInputs[0]))
        #expect(good.isOpen)
        #expect(String(decoding: good.answered, as: UTF8.self).contains(#""type":"hello""#), "the client was registered and greeted")
        let unmasked = IPCFuzzHarness.webSocket(Data(Self.webSocketInputs[3]))
        #expect(!unmasked.isOpen)
        #expect(unmasked.answered.suffix(4) == [0x88, 0x02, 0x03, 0xEA], "close 1002: \(unmasked.answered.suffix(8))")
        let upgraded = IPCFuzzHarness.http(Data(Self.httpInputs[0]))
        #expect(String(decoding: upgraded.answered.prefix(12), as: UTF8.self) == "HTTP/1.1 101")
        let foreign = IPCFuzzHarness.http(Data(Self.httpInputs[1]))
        #expect(String(decoding: foreign.answered.prefix(12), as: UTF8.self) == "HTTP/1.1 403")
    }

    @Test func theWebSocketHarnessSurvivesBadFrames() {
        var generator = SplitMix64(seed: 6455)
        for input in Self.webSocketInputs { IPCFuzzHarness.webSocket(Data(input)) }
        for index in 0..<300 {
            IPCFuzzHarness.webSocket(Data(Self.mutated(Self.webSocketInputs[index % Self.webSocketInputs.count], &generator)))
        }
    }

    @Test func theHTTPHarnessSurvivesBadRequests() {
        var generator = SplitMix64(seed: 9110)
        for input in Self.httpInputs { IPCFuzzHarness.http(Data(input)) }
        for index in 0..<300 {
            IPCFuzzHarness.http(Data(Self.mutated(Self.httpInputs[index % Self.httpInputs.count], &generator)))
        }
    }
}
