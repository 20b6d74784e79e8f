import Foundation

/// Reads stdin line by line on a thread of its own and hands the lines out as an `AsyncStream`.
///
/// Blocking `read(2)` never runs on Swift's cooperative pool. The stream finishes at EOF; EOF alone
/// never stops playback. Lines longer than 64 KiB are cut there and still delivered, so the parser
/// refuses them with `command-too-long` instead of the reader buffering without bound.
final class CommandLineReader: Sendable {
    static let maximumLineLength = 64 * 1024 + 1

    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// Starts the reading thread. Call once.
    func start() {
        let continuation = continuation
        let thread = Thread {
            Thread.current.name = "raudio.stdin"
            var line: [UInt8] = []
            var isDiscarding = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for byte in buffer[0..<count] {
                    if byte == UInt8(ascii: "\n") {
                        continuation.yield(String(decoding: line, as: UTF8.self))
                        line.removeAll(keepingCapacity: true)
                        isDiscarding = false
                    } else if !isDiscarding {
                        line.append(byte)
                        if line.count >= Self.maximumLineLength { isDiscarding = true }
                    }
                }
            }
            if !line.isEmpty { continuation.yield(String(decoding: line, as: UTF8.self)) }
            continuation.finish()
        }
        thread.start()
    }
}
