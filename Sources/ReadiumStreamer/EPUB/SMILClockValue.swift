import Foundation

/// Parses SMIL 3 clock values, as used by `media:duration` and media overlay `clipBegin`/`clipEnd`.
public enum SMILClockValue {
    /// Seconds for `"1:02:03.5"`, `"02:03"`, `"12.5s"`, `"1.5h"`, `"3min"`, `"250ms"`, `"12.5"`; nil otherwise.
    public static func seconds(_ text: String) -> Double? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { return nil }
        if value.contains(":") {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3 else { return nil }
            var total = 0.0
            for (index, part) in parts.enumerated() {
                guard let number = Double(part), number >= 0, !part.isEmpty else { return nil }
                if index < parts.count - 1, part.contains(".") { return nil }
                total = total * 60 + number
            }
            return total
        }
        let units: [(suffix: String, factor: Double)] = [("ms", 0.001), ("min", 60), ("h", 3600), ("s", 1)]
        for unit in units where value.hasSuffix(unit.suffix) {
            guard let number = Double(value.dropLast(unit.suffix.count)), number >= 0 else { return nil }
            return number * unit.factor
        }
        guard let number = Double(value), number >= 0 else { return nil }
        return number
    }
}
