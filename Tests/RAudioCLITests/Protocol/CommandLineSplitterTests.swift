// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import Testing
@testable import RAudioCLI

/// Command lines split by SwiftNIO's line decoder, however the bytes arrive, never longer than allowed.
@Suite struct CommandLineSplitterTests {
    /// The lines of `chunks`, fed one after the other, then the end of the stream.
    static func lines(_ chunks: [[UInt8]]) -> [String] {
        var splitter = CommandLineSplitter()
        var lines: [String] = []
        for chunk in chunks { splitter.split(ByteBuffer(bytes: chunk), into: { lines.append($0) }) }
        splitter.finish(into: { lines.append($0) })
        return lines
    }

    static let stream = Array("pause\n{\"command\":\"seek\",\"value\":\"+10\"}\r\n\nstatus\rplay".utf8)

    @Test func linesEndAtLineBreaksAndTheLastOneAtTheEnd() {
        #expect(Self.lines([Self.stream]) == ["pause", #"{"command":"seek","value":"+10"}"#, "status", "play"])
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func howTheBytesAreCutDoesNotChangeTheLines(size: Int) {
        let chunks = stride(from: 0, to: Self.stream.count, by: size).map { Array(Self.stream[$0..<min($0 + size, Self.stream.count)]) }
        #expect(Self.lines(chunks) == Self.lines([Self.stream]))
    }

    @Test func aLineLongerThanAllowedIsCutDeliveredAndTheRestOfItDropped() {
        let long = [UInt8](repeating: UInt8(ascii: "y"), count: 10 << 20)
        // In pieces as a socket delivers them: the long line's end and the next command in one read.
        let chunks = [Array("status\n".utf8)] + stride(from: 0, to: long.count, by: 65_536).map { Array(long[$0..<min($0 + 65_536, long.count)]) }
            + [Array("\npause\n".utf8)]
        let lines = Self.lines(chunks)
        #expect(lines.count == 3)
        #expect(lines.first == "status")
        #expect(lines.dropFirst().first?.utf8.count == CommandLineSplitter.maximumLineLength)
        #expect(lines.last == "pause")
    }

    @Test func aLongLastLineWithoutItsLineBreakIsDeliveredOnce() {
        let lines = Self.lines([[UInt8](repeating: UInt8(ascii: "z"), count: 200_000)])
        #expect(lines.map(\.utf8.count) == [CommandLineSplitter.maximumLineLength])
    }
}
