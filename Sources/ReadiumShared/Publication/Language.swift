// SPDX-License-Identifier: GPL-3.0-or-later
/// A language, identified by a BCP-47 tag such as `en`, `en-US` or `zh-Hant-TW`.
///
/// Comparison is case-insensitive, as BCP-47 is; `code` keeps the canonical case (`en-US`).
public struct Language: Sendable, Hashable, CustomStringConvertible {
    /// The tag in canonical case: language lowercase, script titlecase, region uppercase.
    public let code: String

    public init(code: String) {
        let subtags = code.replacingUnderscores.split(separator: "-").map(String.init)
        self.code = subtags.enumerated().map { index, subtag in
            guard index > 0 else { return subtag.lowercased() }
            switch subtag.count {
            case 2: return subtag.uppercased()
            case 4 where subtag.allSatisfy(\.isLetter): return subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            default: return subtag.lowercased()
            }
        }.joined(separator: "-")
    }

    /// The primary language subtag: `fr` for `fr-CA`.
    public var baseCode: String {
        String(code.split(separator: "-").first ?? Substring(code))
    }

    /// The region subtag (`US` for `en-US`), if any.
    public var region: String? {
        let subtags: [Substring] = code.split(separator: "-")
        let region = subtags.dropFirst().first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
        return region.map(String.init)
    }

    /// This language without its region or script: `fr-CA` -> `fr`.
    public var removingRegion: Language { Language(code: baseCode) }

    /// Whether `code` looks like a BCP-47 tag (letters, digits and hyphens, starting with 2-8 letters).
    public var isWellFormed: Bool {
        let subtags = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return code == "und" }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    public var description: String { code }

    public static func == (lhs: Language, rhs: Language) -> Bool {
        lhs.code.lowercased() == rhs.code.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code.lowercased())
    }
}

extension String {
    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
