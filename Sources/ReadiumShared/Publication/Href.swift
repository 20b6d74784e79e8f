// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An href inside a publication, normalized to a path relative to the container's root.
///
/// `Href("chapter1/../track.mp3#t=30")` has `path` `track.mp3` and `fragment` `t=30`. Pure value
/// logic, no I/O: use it for manifests (links, locators) as well as for container lookups.
///
/// Rules: a leading `/` means the container root; relative hrefs resolve against the folder of
/// `base` (a file href, as RFC 3986 does); `.` and empty segments are dropped; `..` pops a segment
/// and fails with `.forbidden` when it would leave the root; `%XX` escapes are decoded before
/// segments are split, so `%2E%2E` cannot smuggle an escape. `http(s)://` hrefs fail with `.remote`;
/// any other URL scheme (`file:`, `data:`) with `.forbidden`.
public struct Href: Sendable, Hashable, CustomStringConvertible {
    /// The decoded path relative to the root, without leading slash, query or fragment; empty for the root.
    public let path: String
    /// The part after `?` (still percent-encoded), if any.
    public let query: String?
    /// The part after `#` (still percent-encoded), for example `t=30`, if any.
    public let fragment: String?

    /// Normalizes `string`, resolved against the folder of `base` when it is relative.
    ///
    /// - Parameters:
    ///   - string: the href as written in the manifest or document.
    ///   - base: the href of the document `string` appears in; nil for the root.
    ///   - decodingPercentEscapes: false to take `%` literally (a file actually named `100%.mp3`).
    public init(_ string: String, relativeTo base: String? = nil, decodingPercentEscapes: Bool = true) throws(ResourceError) {
        if let scheme = Href.scheme(of: string) {
            if scheme == "http" || scheme == "https" {
                throw ResourceError(.remote, href: string, message: "is a remote URL, which this publication's container cannot fetch (it reads local files only)")
            }
            throw ResourceError(.forbidden, href: string, message: "uses the URL scheme '\(scheme):', which cannot address a file of the publication")
        }
        var rest = Substring(string)
        var fragment: String?
        var query: String?
        // In ASCII every scalar is a Character of its own (but "\r\n", which holds neither mark), so the
        // marks are found in the bytes; elsewhere a `#` or `?` followed by a combining mark is no mark.
        let isASCII = string.utf8.allSatisfy { $0 < 0x80 }
        if let hash = isASCII ? rest.utf8.firstIndex(of: UInt8(ascii: "#")) : rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = isASCII ? rest.utf8.firstIndex(of: UInt8(ascii: "?")) : rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        var raw = String(rest)
        if decodingPercentEscapes, raw.contains("%") {
            raw = raw.removingPercentEncoding ?? raw
        }
        if raw.contains("\0") {
            throw ResourceError(.forbidden, href: string, message: "contains a NUL character")
        }

        var segments: [Substring] = []
        if raw.isEmpty, let base {
            // An href made only of a fragment or query ("#t=30") designates the base itself.
            segments = try Href(base).path.split(separator: "/")
        } else if !raw.hasPrefix("/"), let base, !base.isEmpty {
            let basePath = try Href(base).path
            segments = basePath.split(separator: "/").dropLast()
        }
        if !(raw.isEmpty && base != nil) {
            for segment in raw.split(separator: "/", omittingEmptySubsequences: true) {
                switch segment {
                case ".": continue
                case "..":
                    guard !segments.isEmpty else {
                        throw ResourceError(.forbidden, href: string, message: "leaves the publication's root folder")
                    }
                    segments.removeLast()
                default: segments.append(segment)
                }
            }
        }
        self.path = segments.joined(separator: "/")
        self.query = query
        self.fragment = fragment
    }

    /// Whether `string` is an `http://` or `https://` URL (case-insensitive).
    public static func isRemote(_ string: String) -> Bool {
        let scheme = Href.scheme(of: string)
        return scheme == "http" || scheme == "https"
    }

    /// The lowercased URL scheme of `string` (`http` in `http://x`), or nil for a relative reference.
    ///
    /// A scheme is an ASCII letter then ASCII letters, digits, `+`, `-` or `.`, up to the first `:`
    /// character (a `:` with a combining mark on it is not one, and then there is no scheme).
    public static func scheme(of string: String) -> String? {
        let bytes = string.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let candidate = bytes[..<colon]
        guard let first = candidate.first, isASCIILetter(first),
              candidate.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
              string[colon...].first == ":" else { return nil }
        return String(string[..<colon]).lowercased()
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `path` percent-encoded for a URL or manifest (`?`, `#`, `%` and `;` escaped too).
    public static func percentEncodedPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%;")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// The path percent-encoded for a URL or manifest, with `?query` and `#fragment` appended.
    public var string: String {
        var result = Href.percentEncodedPath(path)
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    public var description: String { string }
}
