// SPDX-License-Identifier: GPL-3.0-or-later

/// FNV-1a, 64 bits: a hash that is the same across runs and machines (Swift's `Hasher` is seeded per process),
/// for the names of cache files and keys that must outlive the process.
public struct FNV1a64: Sendable {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01B3

    public private(set) var value: UInt64

    /// A hash of nothing yet, from `offset` (FNV's own basis by default; another gives a second, independent hash).
    public init(offset: UInt64 = offsetBasis) {
        value = offset
    }

    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= Self.prime
        }
    }

    /// The hash of `text`'s UTF-8 bytes.
    public init(_ text: String, offset: UInt64 = offsetBasis) {
        self.init(offset: offset)
        combine(text.utf8)
    }

    /// The value as 16 hexadecimal digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
