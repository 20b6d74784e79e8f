// SPDX-License-Identifier: GPL-3.0-or-later
/// What a `sleep` command or `--sleep` asks of the sleep timer.
public enum SleepRequest: Sendable, Hashable {
    /// Pause after this many seconds from now.
    case after(seconds: Double)
    /// Move the deadline by this many seconds (`sleep +5m`); starts a timer when none runs.
    case extend(seconds: Double)
    /// Pause at the end of the table-of-contents entry being heard.
    case endOfChapter
    case off

    /// Parses `30m`, `1h30m`, `90s`, `1:30:00`, `15` (minutes), `+5m`, `chapter`, `off`; nil otherwise.
    public init?(parsing text: String) {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch word {
        case "off", "cancel", "0": self = .off
        case "chapter", "end-of-chapter": self = .endOfChapter
        default:
            let isExtension = word.hasPrefix("+")
            guard let seconds = Self.duration(isExtension ? String(word.dropFirst()) : word), seconds > 0, seconds <= 24 * 3600 else { return nil }
            self = isExtension ? .extend(seconds: seconds) : .after(seconds: seconds)
        }
    }

    /// Seconds from `1h30m`, `45m`, `90s`, `2h` (units h, m, s in that order), `h:mm:ss` or `mm:ss`,
    /// or a bare number of minutes.
    public static func duration(_ text: String) -> Double? {
        if text.contains(":") { return TimeParser.seconds(Substring(text)) }
        if let minutes = TimeParser.decimal(Substring(text)), minutes >= 0, !text.hasPrefix("-"), !text.hasPrefix("+") { return minutes * 60 }
        let units: [Character: (rank: Int, seconds: Double)] = ["h": (1, 3600), "m": (2, 60), "s": (3, 1)]
        var total = 0.0
        var number = ""
        var lastRank = 0
        for character in text {
            if character.isASCIIDigit || character == "." {
                number.append(character)
                continue
            }
            guard let unit = units[character], unit.rank > lastRank, let value = TimeParser.decimal(Substring(number)) else { return nil }
            total += value * unit.seconds
            lastRank = unit.rank
            number = ""
        }
        return number.isEmpty && lastRank > 0 ? total : nil
    }
}
