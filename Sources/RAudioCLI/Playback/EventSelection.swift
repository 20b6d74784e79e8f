// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import RAudioPlayer

/// `--events`: which kinds of events stdout gets. `state,utterance` keeps those kinds only; `all,-range,-position`
/// (or `--events=-range`) keeps every kind but those. `error` events always go out: a program must be told
/// why raudio stopped. The other followers (IPC clients, the terminal player, MPRIS) get every event.
struct EventSelection: ExpressibleByArgument, Equatable, Sendable {
    /// Every kind of event docs/events.md describes.
    static let knownKinds = PlayerEvent.Kind.allCases.map(\.rawValue)
    static let all = EventSelection(kinds: Set(knownKinds))

    /// The kinds written.
    private(set) var kinds: Set<String>

    private init(kinds: Set<String>) {
        self.kinds = kinds
    }

    /// Parses `KIND,KIND` or `-KIND,-KIND` (with `all` before the removals when the value must not start with
    /// a dash: `--events all,-range`, or `--events=-range`); nil for an empty list or kind, an unknown kind, or
    /// kinds both kept and removed.
    init?(argument: String) {
        let words = argument.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !words.isEmpty, !words.contains(where: \.isEmpty) else { return nil }
        let removed = words.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }
        let kept = words.filter { !$0.hasPrefix("-") && $0 != "all" }
        guard (removed + kept).allSatisfy(Self.knownKinds.contains), removed.isEmpty || kept.isEmpty,
              !(words.contains("all") && !kept.isEmpty) else { return nil }
        var kinds = kept.isEmpty ? Set(Self.knownKinds) : Set(kept)
        kinds.subtract(removed)
        kinds.insert("error")
        self.kinds = kinds
    }

    static var allValueStrings: [String] { knownKinds }

    static var defaultCompletionKind: CompletionKind { .list(knownKinds) }

    /// Whether an event of type `kind` is written to stdout.
    func includes(_ kind: String) -> Bool { kinds.contains(kind) }
}
