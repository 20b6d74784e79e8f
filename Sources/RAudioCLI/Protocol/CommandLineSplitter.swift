// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import RAudioPlayer

/// Splits a stream of command bytes (stdin, a unix-socket client) into lines with SwiftNIO's own line
/// decoder, `NIOSplitLinesMessageDecoder` (a line ends at LF, CR LF, or a lone CR, VT or FF; empty lines are
/// left out), at most `maximumLineLength` bytes each.
///
/// A longer line is cut there and still delivered, so that the parser answers `command-too-long` (quoting its
/// start), and the rest of it is dropped up to its line break: however long a line a client sends, at most
/// `maximumLineLength` bytes of it are kept, and dropping costs a scan for the line break, not a loop per
/// byte. Not thread-safe: one reader (a thread, an event loop) owns it.
struct CommandLineSplitter {
    /// One byte more than the parser accepts (`PlayerCommandParser.maximumLineBytes`): a cut line is refused.
    static let maximumLineLength = PlayerCommandParser.maximumLineBytes + 1

    private var lines = Self.makeDecoder()
    private var isDroppingRestOfLine = false

    private static func makeDecoder() -> NIOSingleStepByteToMessageProcessor<NIOSplitLinesMessageDecoder> {
        NIOSingleStepByteToMessageProcessor(NIOSplitLinesMessageDecoder(omittingEmptySubsequences: true))
    }

    /// Hands `receive` each line `bytes` completes, in order.
    mutating func split(_ bytes: ByteBuffer, into receive: (String) -> Void) {
        var bytes = bytes
        while bytes.readableBytes > 0 {
            if isDroppingRestOfLine {
                guard let lineBreak = Self.firstLineBreak(in: bytes) else { return }
                bytes.moveReaderIndex(forwardBy: lineBreak + 1)
                isDroppingRestOfLine = false
                continue
            }
            // Never more than a line's worth waits in the decoder.
            let room = Self.maximumLineLength - lines.unprocessedBytes
            guard let chunk = bytes.readSlice(length: min(room, bytes.readableBytes)) else { return }
            // The decoder throws only for a maximum buffer size, which it is not given.
            try? lines.process(buffer: chunk) { receive(String(buffer: $0)) }
            if lines.unprocessedBytes >= Self.maximumLineLength {
                try? lines.finishProcessing(seenEOF: false) { receive(String(buffer: $0)) }
                lines = Self.makeDecoder()
                isDroppingRestOfLine = true
            }
        }
    }

    /// The stream ended (EOF, a half-close): a last line without its line break is a line too.
    mutating func finish(into receive: (String) -> Void) {
        if !isDroppingRestOfLine { try? lines.finishProcessing(seenEOF: true) { receive(String(buffer: $0)) } }
        lines = Self.makeDecoder()
        isDroppingRestOfLine = false
    }

    /// The offset in `bytes`' readable bytes of the first byte `NIOSplitLinesMessageDecoder` ends a line at (LF,
    /// VT, FF, CR); `memchr` for each, so that dropping megabytes costs little even in a debug build.
    private static func firstLineBreak(in bytes: ByteBuffer) -> Int? {
        bytes.withUnsafeReadableBytes { raw -> Int? in
            guard let base = raw.baseAddress else { return nil }
            var first: Int?
            for lineBreak in UInt8(ascii: "\n")...UInt8(ascii: "\r") {
                let searched = first ?? raw.count
                if let found = memchr(base, Int32(lineBreak), searched) {
                    first = base.distance(to: UnsafeRawPointer(found))
                }
            }
            return first
        }
    }
}
