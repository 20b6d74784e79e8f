// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// A command costs little whatever its size, and means one thing: string arguments are capped before
/// any lookup, a key named twice is refused, a large id stays exact, the sleep timer never goes past
/// 24 hours.
@Suite struct SecurityCommandTests {
    static func failure(_ line: String) -> CommandParseError? {
        if case .failure(let error) = PlayerCommandParser.parse(line: line) { return error }
        return nil
    }

    @Test(arguments: [
        #"{"command":"voice","value":"\#(String(repeating: "x", count: 60_000))"}"#,
        "voice " + String(repeating: "x", count: 60_000),
        #"{"command":"bookmark","note":"\#(String(repeating: "n", count: 5_000))"}"#,
        #"{"command":"sleep","value":"\#(String(repeating: "1", count: 1_000))m"}"#,
        #"{"command":"seek","to":"\#(String(repeating: "1", count: 1_000))"}"#,
        "seek " + String(repeating: "9", count: 1_000),
    ])
    func aLongStringArgumentIsRefusedBeforeAnyLookup(line: String) throws {
        let error = try #require(Self.failure(line), "accepted: \(line.prefix(60))")
        #expect(error.code == .badValue)
        #expect(error.message.contains("allowed"), "\(error.message)")
        #expect(error.message.count < 400, "the message quotes the value, not all of it")
    }

    @Test func aVoiceNameLongerThanAnyLanguageTagHasNoCloseMatchesToCompute() {
        let voices = ["en-us", "fr"].map { TTSVoice(identifier: $0, name: $0, language: Language(code: $0)) }
        #expect(VoicesCommand.closeMatches(to: String(repeating: "x", count: 60_000), in: voices) == "")
        #expect(VoicesCommand.closeMatches(to: "en-u", in: voices).lowercased().contains("en-us"), "short tags still get suggestions")
    }

    @Test(arguments: [#"{"command":"status","command":"quit"}"#, #"{"command":"speed","value":1,"value":2}"#,
                      #"{"command":"go","locator":{"href":"a","href":"b"}}"#, #"{"id":1,"command":"play","id":2}"#])
    func aKeyNamedTwiceIsMalformed(line: String) throws {
        let error = try #require(Self.failure(line), "accepted: \(line)")
        #expect(error.code == .malformed)
        #expect(error.message.contains("appears twice"), "\(error.message)")
    }

    @Test func aLargeNumericIDComesBackExact() throws {
        let request = try #require(try PlayerCommandParser.parse(line: #"{"command":"status","id":9007199254740993}"#).get())
        #expect(request.id == .integer(9_007_199_254_740_993))
        let ack = PlayerEvent.ack(request.command, id: request.id)
        #expect(String(decoding: ack.json.compactUTF8, as: UTF8.self).contains(#""id":9007199254740993"#))
        let huge = try #require(try PlayerCommandParser.parse(line: #"{"command":"status","id":-9223372036854775808}"#).get())
        #expect(huge.id == .integer(Int64.min))
    }

    @Test func extendingTheSleepTimerStopsAt24Hours() throws {
        let timer = SleepTimer(tick: {})
        defer { timer.cancel() }
        let request = try #require(SleepRequest(parsing: "+23h"))
        guard case .extend(let seconds) = request else { Issue.record("+23h is not an extension"); return }
        for _ in 0..<3 { timer.extend(by: seconds) }
        let remaining = try #require(timer.remaining)
        #expect(remaining <= 24 * 3600, "\(remaining / 3600) hours after three sleep +23h")
        #expect(remaining > 23.9 * 3600)
    }

    @Test func aTenMiBLineOnTheUnixSocketCostsLittleCPU() throws {
        let path = IPCTests.socketPath()
        let (running, _) = try IPCTests.start(["--ipc", "unix:\(path)"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        let client = try IPCTestClient(unixPath: path)
        client.startReading()
        #expect(client.waitFor { IPCTests.type($0, "hello") })
        let before = try Self.cpuSeconds(of: running.process.processIdentifier)
        var line = [UInt8](repeating: UInt8(ascii: "y"), count: 10 << 20)
        line.append(UInt8(ascii: "\n"))
        client.write(line)
        client.sendLine(#"{"command":"status","id":"after-the-long-line"}"#)
        #expect(client.waitFor { IPCTests.type($0, "error") && $0.contains("command-too-long") })
        #expect(client.waitFor { IPCTests.type($0, "ack") && $0.contains("after-the-long-line") })
        let spent = try Self.cpuSeconds(of: running.process.processIdentifier) - before
        print("SecurityCommandTests: a 10 MiB line cost \(Int(spent * 1000)) ms of CPU")
        #expect(spent < 2, "a 10 MiB line cost \(spent) s of CPU")
    }

    /// User plus system CPU time of process `pid`, from /proc/PID/stat.
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        // After the command's ")": state is field 3, utime field 14, stime field 15.
        let ticks = try #require(Double(fields[11])) + (try #require(Double(fields[12])))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
