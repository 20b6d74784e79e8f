// SPDX-License-Identifier: GPL-3.0-or-later
/// A key the terminal player reacts to.
enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case enter
    case escape
    case backspace
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters, and the arrow keys' escape sequences
/// in both their forms (`ESC [ A` and, in application mode, `ESC O A`).
///
/// Bytes are fed as they arrive (`feed(_:)`); a sequence split across two reads is completed by the
/// next one. An escape followed by nothing in the same read is the Esc key itself; other sequences
/// (function keys, mouse reports) are swallowed whole, not read as letters.
struct KeyDecoder {
    private var pending: [UInt8] = []

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                guard index + 1 < pending.count else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                guard let (key, length) = escapeSequence(at: index) else { break }  // incomplete: wait for more
                if let key { keys.append(key) }
                index += length
                continue
            }
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter); index += 1; continue
            case 0x7F, 0x08: keys.append(.backspace); index += 1; continue
            case ..<0x20: index += 1; continue
            default: break
            }
            let length = Self.utf8Length(leading: byte)
            guard index + length <= pending.count else { break }
            let scalarBytes = pending[index..<index + length]
            if let text = String(validating: scalarBytes, as: UTF8.self), let character = text.first {
                keys.append(.character(character))
            }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key an escape sequence at `start` stands for (nil for one raudio ignores) and its length,
    /// or nil when the sequence is not complete yet.
    private func escapeSequence(at start: Int) -> (Key?, Int)? {
        let introducer = pending[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            // ESC then another key (Alt+key): the escape alone; the key is read next.
            return (.escape, 1)
        }
        var end = start + 2
        // Parameters and intermediates (digits, ';', ...), then one final byte 0x40...0x7E.
        while end < pending.count, (0x20...0x3F).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return nil }
        let final = pending[end]
        let key: Key? = switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
        return (key, end - start + 1)
    }

    private static func utf8Length(leading byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
