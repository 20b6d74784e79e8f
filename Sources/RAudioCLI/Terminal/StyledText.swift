// SPDX-License-Identifier: GPL-3.0-or-later
/// How a piece of the display looks.
enum TextStyle: Equatable, Sendable {
    case plain, bold, dim, highlight, shaded, warning, error, accent, selected
}

/// Which escape sequences the terminal gets: colours and attributes, attributes only (`NO_COLOR`), or
/// none at all (`TERM=dumb`).
struct TerminalCapabilities: Equatable, Sendable {
    var colors: Bool
    var attributes: Bool

    static let full = TerminalCapabilities(colors: true, attributes: true)
    static let noColor = TerminalCapabilities(colors: false, attributes: true)
    static let plain = TerminalCapabilities(colors: false, attributes: false)

    /// From the environment: `TERM=dumb` gives plain text, `NO_COLOR` (set, not empty) no colours.
    static func fromEnvironment(_ environment: [String: String]) -> TerminalCapabilities {
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .plain }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .noColor }
        return .full
    }

    /// The SGR sequence that starts `style` (empty for plain or when not allowed).
    func start(_ style: TextStyle) -> String {
        guard attributes, style != .plain else { return "" }
        if !colors {
            return switch style {
            case .bold, .accent, .error, .warning: "\u{1B}[1m"
            case .dim, .shaded: ""
            case .highlight, .selected: "\u{1B}[7m"
            case .plain: ""
            }
        }
        return switch style {
        case .bold: "\u{1B}[1m"
        case .dim: "\u{1B}[2m"
        case .highlight: "\u{1B}[30;43m"
        case .shaded: "\u{1B}[36m"
        case .warning: "\u{1B}[33m"
        case .error: "\u{1B}[1;31m"
        case .accent: "\u{1B}[1;32m"
        case .selected: "\u{1B}[7m"
        case .plain: ""
        }
    }

    func end(_ style: TextStyle) -> String {
        start(style).isEmpty ? "" : "\u{1B}[0m"
    }
}

/// A run of text in one style.
struct Span: Equatable, Sendable {
    var text: String
    var style: TextStyle = .plain
}

/// One line of the display: spans, cut to the terminal's width when written.
struct StyledLine: Equatable, Sendable {
    var spans: [Span] = []

    init(_ spans: [Span] = []) {
        self.spans = spans
    }

    init(_ text: String, _ style: TextStyle = .plain) {
        spans = [Span(text: text, style: style)]
    }

    var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// The text without styles.
    var text: String { spans.map(\.text).joined() }

    /// The line for the terminal: at most `columns` wide ("…" where it was cut), with escape sequences
    /// for what `capabilities` allow. Escape sequences in the text are removed and other control
    /// characters shown as spaces (`TerminalText.printable`).
    func rendered(columns: Int, _ capabilities: TerminalCapabilities) -> String {
        var output = ""
        var used = 0
        let isCut = width > columns
        let room = isCut ? columns - 1 : columns
        spanLoop: for var span in spans {
            if let simple = DisplayWidth.simpleWidth(span.text) {
                // One column per scalar: whole, or cut at a scalar (no grapheme clusters to keep whole).
                let taken = min(simple, max(0, room - used))
                let piece = taken == simple ? span.text : String(String.UnicodeScalarView(span.text.unicodeScalars.prefix(taken)))
                output += capabilities.start(span.style) + piece + capabilities.end(span.style)
                used += taken
                if taken < simple { break spanLoop }
                continue
            }
            // Book text: escape sequences removed whole, not only their ESC (`TerminalText`).
            span.text = TerminalText.printable(span.text)
            var piece = ""
            for character in span.text {
                let shown: Character = character.unicodeScalars.first.map(DisplayWidth.isControl) == true ? " " : character
                let columnsTaken = DisplayWidth.of(shown)
                if used + columnsTaken > room {
                    output += capabilities.start(span.style) + piece + capabilities.end(span.style)
                    break spanLoop
                }
                piece.append(shown)
                used += columnsTaken
            }
            output += capabilities.start(span.style) + piece + capabilities.end(span.style)
        }
        if isCut && columns > 0 { output += "…" }
        return output
    }
}
