// SPDX-License-Identifier: GPL-3.0-or-later
/// Orders file names as a person would: "track2" before "track10".
///
/// Used for the reading order of informal audiobooks (folders or ZIPs of audio files). Case is
/// ignored, runs of digits compare by numeric value (of any length; leading zeros ignored), paths
/// compare folder by folder, and ties keep their input order.
public enum NaturalSort {
    /// Sorts `names` naturally; stable for names that compare equal ("a1" and "A01").
    public static func sorted(_ names: [String]) -> [String] {
        sorted(names, by: { $0 })
    }

    /// Sorts `elements` naturally by the name `key` gives; stable for equal names.
    public static func sorted<Element>(_ elements: [Element], by key: (Element) -> String) -> [Element] {
        let keyed = elements.enumerated().map { (offset: $0.offset, key: key($0.element), element: $0.element) }
        return keyed.sorted { left, right in
            switch compare(left.key, right.key) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return left.offset < right.offset
            }
        }.map(\.element)
    }

    /// Whether `left` comes before `right` in natural order.
    public static func areInIncreasingOrder(_ left: String, _ right: String) -> Bool {
        compare(left, right) == .orderedAscending
    }

    /// Compares two paths naturally, one `/`-separated segment at a time.
    public static func compare(_ left: String, _ right: String) -> NaturalOrder {
        let leftSegments = left.split(separator: "/", omittingEmptySubsequences: false)
        let rightSegments = right.split(separator: "/", omittingEmptySubsequences: false)
        for (l, r) in zip(leftSegments, rightSegments) {
            let order = compareSegment(Array(l.lowercased().unicodeScalars), Array(r.lowercased().unicodeScalars))
            if order != .orderedSame { return order }
        }
        if leftSegments.count == rightSegments.count { return .orderedSame }
        return leftSegments.count < rightSegments.count ? .orderedAscending : .orderedDescending
    }

    /// The result of a natural comparison (Foundation-free, so the core stays pure).
    public enum NaturalOrder: Sendable {
        case orderedAscending, orderedSame, orderedDescending
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x30 && scalar.value <= 0x39
    }

    private static func compareSegment(_ l: [Unicode.Scalar], _ r: [Unicode.Scalar]) -> NaturalOrder {
        var i = 0, j = 0
        while i < l.count && j < r.count {
            if isDigit(l[i]) && isDigit(r[j]) {
                var iEnd = i, jEnd = j
                while iEnd < l.count && isDigit(l[iEnd]) { iEnd += 1 }
                while jEnd < r.count && isDigit(r[jEnd]) { jEnd += 1 }
                var iStart = i, jStart = j
                while iStart < iEnd - 1 && l[iStart] == "0" { iStart += 1 }
                while jStart < jEnd - 1 && r[jStart] == "0" { jStart += 1 }
                let lDigits = iEnd - iStart, rDigits = jEnd - jStart
                if lDigits != rDigits { return lDigits < rDigits ? .orderedAscending : .orderedDescending }
                for k in 0..<lDigits where l[iStart + k] != r[jStart + k] {
                    return l[iStart + k].value < r[jStart + k].value ? .orderedAscending : .orderedDescending
                }
                i = iEnd; j = jEnd
            } else {
                if l[i] != r[j] { return l[i].value < r[j].value ? .orderedAscending : .orderedDescending }
                i += 1; j += 1
            }
        }
        if i < l.count { return .orderedDescending }
        if j < r.count { return .orderedAscending }
        return .orderedSame
    }
}
