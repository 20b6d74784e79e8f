// SPDX-License-Identifier: GPL-3.0-or-later
/// The punctuation `SentenceTokenizer` looks for, by scalar value.
///
/// Each is a single scalar with no canonical decomposition, so a character of several scalars (a mark
/// followed by a combining accent) is never one of them, as with `Character` equality.
enum SentenceMarks {
    /// `.` `!` `?` `…` `‼` `⁇` `⁈` `⁉`, the Arabic `؟`, Urdu `۔`, Hebrew `׃` and Devanagari `।` `॥`.
    static func isTerminator(_ value: UInt32) -> Bool {
        switch value {
        case 0x2E, 0x21, 0x3F, 0x2026, 0x203C, 0x2047, 0x2048, 0x2049, 0x061F, 0x06D4, 0x05C3, 0x0964, 0x0965: true
        default: false
        }
    }

    /// `。` `！` `？` `｡`: they end a sentence without a following space.
    static func isCJKTerminator(_ value: UInt32) -> Bool {
        switch value {
        case 0x3002, 0xFF01, 0xFF1F, 0xFF61: true
        default: false
        }
    }

    /// Closing quotes and brackets: `"` `”` `’` `'` `»` `›` `)` `]` `}` `」` `』` `）` `】` `〕` `〉` `》`.
    static func isCloser(_ value: UInt32) -> Bool {
        switch value {
        case 0x22, 0x201D, 0x2019, 0x27, 0xBB, 0x203A, 0x29, 0x5D, 0x7D, 0x300D, 0x300F, 0xFF09, 0x3011, 0x3015, 0x3009, 0x300B: true
        default: false
        }
    }

    /// Opening quotes, brackets and dashes: `"` `“` `‘` `'` `«` `‹` `(` `[` `¿` `¡` `—` `–` `「` `『`.
    static func isOpener(_ value: UInt32) -> Bool {
        switch value {
        case 0x22, 0x201C, 0x2018, 0x27, 0xAB, 0x2039, 0x28, 0x5B, 0xBF, 0xA1, 0x2014, 0x2013, 0x300C, 0x300E: true
        default: false
        }
    }
}
