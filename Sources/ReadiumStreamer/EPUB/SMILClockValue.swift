// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Parses SMIL 3 clock values, as used by `media:duration` and media overlay `clipBegin`/`clipEnd`.
///
/// The three forms of SMIL 3.0 Timing: full clock `1:02:03.5` (hours of any digits, two-digit
/// minutes and seconds below 60), partial clock `02:03.5` (two-digit minutes and seconds below 60),
/// and timecount `3.5s`, `1500ms`, `2min`, `1h`, or a bare number of seconds. Anything else (`10m`,
/// `.5s`, `0:00:60`, `100:00.000`, `00:00:10.999ms`) is refused.
public enum SMILClockValue {
    /// Seconds for a valid clock value; nil otherwise.
    public static func seconds(_ text: String) -> Double? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, value.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        if value.contains(":") { return clock(value) }
        return timecount(value)
    }

    /// `hours:mm:ss(.fraction)` or `mm:ss(.fraction)`.
    private static func clock(_ value: String) -> Double? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var seconds = 0.0
        if parts.count == 3 {
            guard let hours = digits(parts[0]) else { return nil }
            seconds = Double(hours) * 3600
        }
        let minutesPart = parts[parts.count - 2]
        guard minutesPart.count == 2, let minutes = digits(minutesPart), minutes < 60 else { return nil }
        guard let secondsValue = decimal(parts[parts.count - 1], integerDigits: 2), secondsValue < 60 else { return nil }
        return seconds + Double(minutes) * 60 + secondsValue
    }

    /// `digits(.fraction)(h|min|s|ms)`.
    private static func timecount(_ value: String) -> Double? {
        let units: [(suffix: String, factor: Double)] = [("ms", 0.001), ("min", 60), ("h", 3600), ("s", 1)]
        var number = Substring(value)
        var factor = 1.0
        if let unit = units.first(where: { value.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            factor = unit.factor
        }
        guard let seconds = decimal(number, integerDigits: nil) else { return nil }
        return seconds * factor
    }

    /// A non-negative integer made only of ASCII digits.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    /// `digits` or `digits.digits`, with exactly `integerDigits` before the point when given.
    private static func decimal(_ text: Substring, integerDigits: Int?) -> Double? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 1 || pieces.count == 2, digits(pieces[0]) != nil else { return nil }
        if let integerDigits, pieces[0].count != integerDigits { return nil }
        if pieces.count == 2, digits(pieces[1]) == nil { return nil }
        guard let number = Double(text), number.isFinite else { return nil }
        return number
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
