// SPDX-License-Identifier: GPL-3.0-or-later
/// Book text made safe for a terminal: what a publication says (its title, authors, chapter titles,
/// description, hrefs) is written by whoever made the file, and a terminal obeys the control codes in it.
///
/// Every human output that shows book text goes through `printable(_:keepingLineBreaks:)`: `info
/// --human`, `history --human`, `bookmarks --human`, the terminal player's screen and its last line.
enum TerminalText {
    /// `text` without escape sequences and control characters: an ESC or C1 sequence (CSI `ESC [` or
    /// U+009B with its parameters and final byte; OSC, DCS, PM and APC strings up to their terminator;
    /// any other `ESC x` pair) is removed whole; any other C0 or C1 control, DEL included, becomes a space
    /// (a line break stays one when `keepingLineBreaks`).
    static func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // The usual case, nothing to remove: the same string.
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar.value {
            case 0x1B:
                // ESC: the next scalar says which sequence it starts.
                guard let next = pending else { break }
                pending = scalars.next()
                switch next {
                case "[": skipControlSequence(&scalars, &pending)
                case "]", "P", "^", "_", "X": skipControlString(&scalars, &pending)
                default:
                    // ESC with intermediate bytes (ESC ( B) up to its final byte, or a pair (ESC c, ESC 7).
                    var last = next
                    while (0x20...0x2F).contains(last.value), let following = pending {
                        pending = scalars.next()
                        last = following
                    }
                }
            case 0x9B: skipControlSequence(&scalars, &pending)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: skipControlString(&scalars, &pending)
            case 0x0A where keepingLineBreaks: output.append(scalar)
            case 0x0D where keepingLineBreaks:
                // CR LF or a lone CR: one line break.
                if pending?.value == 0x0A { pending = scalars.next() }
                output.append("\n")
            default:
                output.append(isControl(scalar) ? " " : scalar)
            }
        }
        return String(output)
    }

    /// A C0 control, DEL or a C1 control.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// Skips a CSI sequence's parameter and intermediate bytes and its final byte (0x40...0x7E); a control
    /// character ends it early (as a terminal would abandon it).
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator, _ pending: inout Unicode.Scalar?) {
        while let scalar = pending {
            pending = scalars.next()
            if (0x40...0x7E).contains(scalar.value) || !(0x20..<0x7F).contains(scalar.value) { return }
        }
    }

    /// Skips an OSC, DCS, SOS, PM or APC string up to its terminator: BEL, ESC \ or ST (U+009C).
    private static func skipControlString(_ scalars: inout String.UnicodeScalarView.Iterator, _ pending: inout Unicode.Scalar?) {
        while let scalar = pending {
            pending = scalars.next()
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                if pending == "\\" { pending = scalars.next() }
                return
            default: continue
            }
        }
    }
}
