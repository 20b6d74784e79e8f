// SPDX-License-Identifier: GPL-3.0-or-later
/// How many terminal columns text takes: 2 for East Asian wide and fullwidth characters and emoji,
/// 0 for combining marks and format characters, 1 otherwise, counted per grapheme cluster.
///
/// Measured here instead of with the C library's `wcwidth`, which answers -1 outside a UTF-8 locale
/// and lags behind Unicode. Right-to-left text (Hebrew, Arabic) takes one column per letter, its
/// vowel points none; it is written in logical order, and a terminal with bidi support shows it
/// right to left.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        if let simple = simpleWidth(String(text)) { return simple }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns `text` takes when every one of its scalars is a printable character one column wide
    /// on its own (ASCII, Latin, Greek, Cyrillic letters without combining marks, box drawing and the
    /// bars' blocks), else nil. A fast path: no grapheme breaking, no Unicode property lookups.
    static func simpleWidth(_ text: String) -> Int? {
        var count = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            guard (0x20..<0x7F).contains(value) || (0xA0..<0x300).contains(value) || (0x2500...0x25FC).contains(value) else { return nil }
            count += 1
        }
        return count
    }

    /// The columns one grapheme cluster takes.
    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        // Fast paths, for what a frame is mostly made of (Unicode property lookups cost more).
        let value = first.value
        if value < 0x300 && (character.utf8.count == 1 || !character.unicodeScalars.contains { $0.value == 0xFE0F }) {
            return isControl(first) ? 0 : 1
        }
        if (0x2500...0x25FC).contains(value) { return 1 }  // box drawing, blocks, shapes: the bars
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if isWide(first) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// `text` cut to at most `width` columns, ending with "…" when it was cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    static func padded(_ text: String, to width: Int) -> String {
        let cut = truncated(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }

    /// `text` broken into lines of at most `width` columns, at spaces where it can be.
    static func wrapped(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = of(word)
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 { lines.append(line) }
            line = ""
            lineWidth = 0
            // A word wider than the line (CJK text has no spaces) is cut at character boundaries.
            for character in word {
                let columns = of(character)
                if lineWidth + columns > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += columns
            }
        }
        if lineWidth > 0 { lines.append(line) }
        return lines
    }

    /// C0 and C1 control characters (and DEL), which a frame shows as spaces.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return wideRanges.contains { $0.contains(value) }
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, and the emoji blocks shown two columns wide.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4,
        0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
        0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC,
        0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
