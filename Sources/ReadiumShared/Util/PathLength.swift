// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The limits the kernel puts on a path (`ENAMETOOLONG`): a name longer than `NAME_MAX` (255 bytes) or a
/// path of `PATH_MAX` (4,096) bytes or more cannot name a file, so it is reported as too long, not missing.
public enum PathLength {
    public static let maximumNameBytes = Int(NAME_MAX)
    public static let maximumPathBytes = Int(PATH_MAX) - 1

    /// Why `path` cannot name a file ("is 100000 bytes long, ..."), or nil when its lengths are allowed.
    public static func problem(_ path: String) -> String? {
        let bytes = path.utf8.count
        if bytes > maximumPathBytes {
            return "is too long to be a path: \(bytes) bytes, more than the \(maximumPathBytes) the system allows (ENAMETOOLONG)"
        }
        if let name = path.split(separator: "/").first(where: { $0.utf8.count > maximumNameBytes }) {
            return "has a name too long to be a file's: \(name.utf8.count) bytes, more than the \(maximumNameBytes) the system allows (ENAMETOOLONG)"
        }
        return nil
    }

    /// `path` shortened for a message: its first 60 and last 40 characters around an ellipsis when longer.
    public static func abbreviated(_ path: String) -> String {
        guard path.count > 120 else { return path }
        return String(path.prefix(60)) + "…" + String(path.suffix(40))
    }
}
