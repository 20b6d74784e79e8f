// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A temporal media fragment, `t=begin,end` (W3C Media Fragments URI), as used in audio locators and
/// table-of-contents links such as `track.mp3#t=30`.
///
/// Parses seconds (`t=30.5`), `npt:` prefixes and clock forms (`t=1:02:03.5`, `t=02:03`); either bound
/// may be missing (`t=,40` means from the start to 40 s). Formats with millisecond precision.
public struct MediaFragment: Sendable, Hashable, CustomStringConvertible {
    /// Start in seconds; nil means the start of the resource.
    public var begin: Double?
    /// End in seconds; nil means the end of the resource.
    public var end: Double?

    public init(begin: Double?, end: Double? = nil) {
        self.begin = begin
        self.end = end
    }

    /// Parses `t=...` (with or without a leading `#`); nil when `fragment` is not a valid temporal fragment.
    /// Other fragment parameters joined with `&` are ignored (`id=x&t=10`).
    public init?(parsing fragment: String) {
        let trimmed = fragment.hasPrefix("#") ? String(fragment.dropFirst()) : fragment
        guard let parameter = trimmed.split(separator: "&").first(where: { $0.hasPrefix("t=") }) else { return nil }
        var value = String(parameter.dropFirst(2))
        value = value.removingPercentEncoding ?? value
        if value.hasPrefix("npt:") { value.removeFirst(4) }
        let bounds = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(bounds.count) else { return nil }
        let begin = bounds[0].isEmpty ? nil : MediaFragment.seconds(from: bounds[0])
        let end = bounds.count == 2 && !bounds[1].isEmpty ? MediaFragment.seconds(from: bounds[1]) : nil
        if !bounds[0].isEmpty && begin == nil { return nil }
        if bounds.count == 2 && !bounds[1].isEmpty && end == nil { return nil }
        if begin == nil && end == nil { return nil }
        if let begin, let end, end < begin { return nil }
        self.init(begin: begin, end: end)
    }

    /// Seconds from `12.5`, `1:02:03.5` or `02:03`; nil when malformed or negative.
    public static func seconds(from text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                let number = Double(part), number.isFinite
            else { return nil }
            if index > 0 && number >= 60 { return nil }
            total = total * 60 + number
        }
        return total
    }

    /// `t=30`, `t=30.5,40.125`, `t=,40`, with at most three decimals.
    public var description: String {
        let beginText = begin.map(MediaFragment.format) ?? ""
        guard let end else { return "t=\(beginText)" }
        return "t=\(beginText),\(MediaFragment.format(end))"
    }

    /// Seconds with millisecond precision and no trailing zeros: `30`, `30.5`, `30.125`.
    public static func format(_ seconds: Double) -> String {
        let milliseconds = (max(seconds, 0) * 1000).rounded()
        let whole = Int64(milliseconds / 1000)
        let fraction = Int64(milliseconds) - whole * 1000
        guard fraction > 0 else { return String(whole) }
        var decimals = String(format: "%03lld", fraction)
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(whole).\(decimals)"
    }
}
