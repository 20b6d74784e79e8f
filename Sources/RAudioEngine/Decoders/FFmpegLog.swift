// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import ReadiumShared

/// FFmpeg's own log, routed through raudio's: FFmpeg would write it to stderr, with pointers in it
/// (`[aac @ 0x7f…] Audio object type 42 is not implemented…`), beside raudio's own message.
///
/// Installed with `av_log_set_callback` when the libraries load. A line of level warning or worse goes to
/// the handler (`--verbose`: stderr, through raudio's log; none by default, FFmpeg is quiet) and is kept
/// for the caller that is waiting on this thread inside `collecting(_:)`, which puts FFmpeg's reason
/// into raudio's one-line error (`the aac decoder cannot decode it: audio object type 8 is not implemented`).
public enum FFmpegLog {
    /// A line FFmpeg logged: `source` is the name of what logged it (`aac`, `mov,mp4,m4a,3gp,3g2,mj2`),
    /// `message` its text without the pointer, the newline or FFmpeg's request to update.
    public struct Line: Sendable, Hashable, CustomStringConvertible {
        public var level: Int32
        public var source: String?
        public var message: String

        public var description: String { source.map { "[\($0)] \(message)" } ?? message }
    }

    private struct State {
        var handler: (@Sendable (Line) -> Void)?
        /// The lines collected for each thread inside `collecting`, by thread.
        var collecting: [pthread_t: [Line]] = [:]
        /// The start of a line a thread is logging in several calls (`Audio object type 8`, then ` is not
        /// implemented…\n`), until its newline.
        var partial: [pthread_t: String] = [:]
    }

    private static let state = Locked(State())

    /// Sends FFmpeg's warnings and errors to `handler` (nil: nowhere, the default).
    public static func setHandler(_ handler: (@Sendable (Line) -> Void)?) {
        state.withLock { $0.handler = handler }
    }

    /// `body`'s result and the lines FFmpeg logged on this thread while it ran (warnings and worse: a
    /// feature FFmpeg lacks is logged as a warning).
    static func collecting<T>(_ body: () throws -> T) rethrows -> (result: T, lines: [Line]) {
        let thread = pthread_self()
        state.withLock { $0.collecting[thread] = [] }
        defer { state.withLock { $0.collecting[thread] = nil } }
        let result = try body()
        return (result, state.withLock { $0.collecting[thread] ?? [] })
    }

    /// Takes over FFmpeg's log (`av_log_set_callback`), and lets through only warnings and worse.
    static func install(_ ffmpeg: FFmpegFunctions) {
        formatLine.withLock { $0 = ffmpeg.av_log_format_line2 }
        ffmpeg.av_log_set_level(AV_LOG_WARNING)
        ffmpeg.av_log_set_callback { context, level, format, arguments in
            FFmpegLog.receive(context: context, level: level, format: format, arguments: arguments)
        }
    }

    private static let formatLine = Locked<FFmpegFunctions.FormatLine?>(nil)

    /// One call of FFmpeg's log, on the thread that logged it.
    private static func receive(context: UnsafeMutableRawPointer?, level: Int32, format: UnsafePointer<CChar>?, arguments: FFmpegFunctions.VaList?) {
        guard level <= AV_LOG_WARNING, let formatLine = formatLine.withLock({ $0 }) else { return }
        let thread = pthread_self()
        let started = state.withLock { $0.partial[thread] }
        var buffer = [CChar](repeating: 0, count: 1024)
        // The `[aac @ 0x…]` prefix only at the start of a line.
        var printPrefix: Int32 = started == nil ? 1 : 0
        _ = formatLine(context, level, format, arguments, &buffer, Int32(buffer.count), &printPrefix)
        let text = (started ?? "") + String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasSuffix("\n") || text.utf8.count > 4096 else {
            state.withLock { $0.partial[thread] = text }
            return
        }
        let line = parse(text, level: level)
        let handler = state.withLock { state -> (@Sendable (Line) -> Void)? in
            state.partial[thread] = nil
            if let line { state.collecting[thread]?.append(line) }
            return state.handler
        }
        if let line { handler?(line) }
    }

    /// A formatted line (`[aac @ 0x7f…] Audio object type 8 is not implemented. Update your FFmpeg…\n`) as a
    /// `Line`; nil when it holds nothing.
    static func parse(_ formatted: String, level: Int32) -> Line? {
        var text = Substring(formatted)
        var source: String?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let prefix = text[text.index(after: text.startIndex)..<close]
            source = String(prefix.components(separatedBy: " @ ").first ?? String(prefix))
            text = text[text.index(after: close)...]
        }
        var message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let request = message.range(of: " Update your FFmpeg version") { message = String(message[..<request.lowerBound]) }
        if message.hasSuffix(".") { message.removeLast() }
        guard !message.isEmpty else { return nil }
        return Line(level: level, source: source, message: message)
    }
}
