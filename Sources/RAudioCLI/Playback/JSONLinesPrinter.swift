// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioPlayer
import ReadiumShared

/// The stdout writer: prints events as JSON lines on stdout (docs/events.md), and the message of each
/// `warning` and `error` on stderr for people.
///
/// When stdout is closed (the reading app went away), `receive` throws `ReaderGone` and the session stops
/// quietly with exit 0. With the terminal player (`printsJSONLines` false) nothing goes to stdout and the
/// display shows the messages; this printer then speaks only until the display starts.
final class JSONLinesPrinter: EncodedEventObserver {
    /// Whether events go to stdout as JSON lines (false when the terminal player draws them).
    let printsJSONLines: Bool
    /// The kinds of events stdout gets (`--events`); the other observers get them all.
    let selection: EventSelection

    init(printsJSONLines: Bool = true, selection: EventSelection = .all) {
        self.printsJSONLines = printsJSONLines
        self.selection = selection
    }

    func receive(_ event: PlayerEvent, json: [UInt8]) throws(ReaderGone) {
        switch event {
        // The messages quote book text (hrefs, titles): without the control codes a terminal would obey.
        case .warning(let issue): StandardStreams.printError("raudio: warning: " + TerminalText.printable(issue.message, keepingLineBreaks: true))
        case .error(let issue): StandardStreams.printError("raudio: error: " + TerminalText.printable(issue.message, keepingLineBreaks: true))
        default: break
        }
        guard printsJSONLines, selection.includes(event.kind.rawValue) else { return }
        var line = json
        line.append(UInt8(ascii: "\n"))
        try StandardStreams.printLine(bytes: line)
    }
}
