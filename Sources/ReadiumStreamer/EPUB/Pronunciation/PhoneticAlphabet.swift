// SPDX-License-Identifier: GPL-3.0-or-later
/// The phonetic alphabets a book may write its pronunciations in (PLS `alphabet`, `ssml:alphabet`): the IPA and
/// X-SAMPA, which is turned into the IPA when the book is read, so that speech engines see the IPA only.
enum PhoneticAlphabet: Sendable, Hashable {
    case ipa
    case xSAMPA

    /// The alphabet named `name` (`ipa`, `x-sampa`, in any case); nil for any other.
    init?(name: String) {
        switch name.trimmingWhiteSpace().lowercased() {
        case "ipa": self = .ipa
        case "x-sampa", "xsampa": self = .xSAMPA
        default: return nil
        }
    }

    /// `phonemes` in the IPA (white space collapsed); nil when X-SAMPA has a symbol it does not know, or
    /// when there is nothing left to say.
    func ipa(_ phonemes: String) -> String? {
        let collapsed = phonemes.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        switch self {
        case .ipa: return collapsed
        case .xSAMPA: return XSAMPA.ipa(collapsed)
        }
    }
}

extension String {
    /// The string without white space at either end.
    func trimmingWhiteSpace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
