// SPDX-License-Identifier: GPL-3.0-or-later

/// A mistake in a publication that was worked around: reported, never fatal.
///
/// Readium parses leniently: a string where an array is allowed, a single contributor object, a
/// missing optional field are accepted, and each gets a warning like this one.
public struct ParsingWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file the mistake is in (a manifest, an OPF, an XHTML href...).
    public var source: String
    /// Where in that file, as a JSON path (`metadata.author[1]`) or an element path; empty when unknown.
    public var path: String
    /// What was wrong and what was done about it.
    public var message: String
    /// What the mistake concerns.
    public var kind: Kind

    /// What a warning concerns: the publication's files in general, or how its words are to be pronounced (a
    /// pronunciation lexicon, `ssml:ph`; the words are then spoken as written).
    public enum Kind: Sendable, Hashable {
        case content
        case pronunciation
    }

    public init(source: String, path: String, message: String, kind: Kind = .content) {
        self.source = source
        self.path = path
        self.message = message
        self.kind = kind
    }

    public var description: String {
        path.isEmpty ? "\(source): \(message)" : "\(source): \(path): \(message)"
    }
}

/// Collects the warnings of a parse. Safe to share between threads.
public final class WarningLog: Sendable {
    private let storage = Locked<(list: [ParsingWarning], seen: Set<ParsingWarning>)>(([], []))

    public init() {}

    /// Records `warning`, unless the same warning was recorded already (a document read twice, for its
    /// chapters' places and for its text, is repaired twice alike).
    public func append(_ warning: ParsingWarning) {
        storage.withLock { if $0.seen.insert(warning).inserted { $0.list.append(warning) } }
    }

    /// Every warning so far, once each, in the order they were reported.
    public var warnings: [ParsingWarning] {
        storage.withLock { $0.list }
    }
}
