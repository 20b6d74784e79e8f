// SPDX-License-Identifier: GPL-3.0-or-later
/// Reads times and numbers as people type them, strictly: no hex, no exponent, no `nan` or `inf`.
public enum TimeParser {
    /// Seconds from `h:mm:ss`, `mm:ss` or `ss`, each with optional decimals on the seconds
    /// (`1:02:03.5`, `90:00`, `3723.5`). Minutes and seconds after a colon are two digits below 60.
    /// Nil for anything else, including signs.
    public static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = parts.last else { return nil }
        guard let seconds = unsignedDecimal(last) else { return nil }
        if parts.count == 1 { return seconds }
        guard last.prefix(while: \.isASCIIDigit).count == 2, seconds < 60 else { return nil }
        var total = seconds
        var multiplier = 60.0
        for (index, part) in parts.dropLast().reversed().enumerated() {
            let isLeading = index == parts.count - 2
            guard !part.isEmpty, part.count <= 6, part.allSatisfy(\.isASCIIDigit), let value = Double(part) else {
                return nil
            }
            if !isLeading { guard part.count == 2, value < 60 else { return nil } }
            total += value * multiplier
            multiplier *= 60
        }
        return total.isFinite ? total : nil
    }

    /// A decimal number with an optional sign: `1.5`, `-10`, `+.5`, `3.`. Nil for anything else.
    public static func decimal(_ text: Substring) -> Double? {
        var body = text
        var sign = 1.0
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        return unsignedDecimal(body).map { sign * $0 }
    }

    /// Digits with at most one dot and at least one digit, at most 32 characters.
    private static func unsignedDecimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.count <= 32,
              text.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
              text.filter({ $0 == "." }).count <= 1,
              text.contains(where: \.isASCIIDigit),
              let value = Double(String(text)), value.isFinite
        else { return nil }
        return value
    }
}

extension Character {
    /// 0 to 9 only (not other scripts' digits, which `isNumber` accepts).
    public var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
