// SPDX-License-Identifier: GPL-3.0-or-later
/// An ordered sequence of items an `AudioRenderer` plays one after another, gaplessly.
///
/// The audiobook navigator's items are the reading order's tracks; the speech synthesizer's are
/// synthesized utterances wrapped in an `AudioDecoder`. Called on the render thread only, so opening
/// may block (ZIP reads, codec set-up), but must not await.
public protocol RenderSource: Sendable {
    /// How many items there are; nil when unknown (an item index past the end then throws
    /// `RenderSourceEnd`).
    var itemCount: Int? { get }

    /// Opens a decoder for the item at `index`, positioned at its first frame.
    func openItem(at index: Int) throws -> any AudioDecoder

    /// Describes `error`, thrown by `openItem` or by a decoder of the item at `index`, for a listener.
    func issue(for error: any Error, item index: Int) -> RenderIssue

    /// When the item at `index` is opened ahead of its turn, for a gapless join (`.atStart` unless a
    /// source says otherwise). A source that answers `.nearEnd` must allow `openItem` on another thread.
    func preopening(ofItem index: Int) -> ItemPreopening

    /// The issue of an item that opened but gave no audio at all from its start (an M4B whose media data
    /// is missing): nil when an empty item is fine here (the default: a silent utterance), else the
    /// item is skipped with this issue like one that failed.
    func emptyItemIssue(at index: Int) -> RenderIssue?
}

/// When the render loop opens the item that follows the current one.
public enum ItemPreopening: Sendable, Equatable {
    /// On the render thread, as soon as the previous item starts: opening is cheap (a file, a ZIP entry,
    /// a synthesized utterance).
    case atStart
    /// On a thread of its own, once `leadSeconds` or less of the previous item remain: opening waits on
    /// the network and fetches bytes (a remote track), so it neither holds up the previous item's audio
    /// nor fetches a track long before it is heard. `previousDuration` (seconds, from the publication)
    /// stands in for the previous item's length when its decoder does not know it.
    case nearEnd(leadSeconds: Double, previousDuration: Double?)
}

/// Thrown by `RenderSource.openItem(at:)` for an index past the last item when `itemCount` is nil.
public struct RenderSourceEnd: Error, Sendable {
    public init() {}
}

extension RenderSource {
    /// Codes `AudioDecoderError`s by their code; anything else is `item-unreadable`.
    public func issue(for error: any Error, item index: Int) -> RenderIssue {
        if let error = error as? AudioDecoderError {
            return RenderIssue(item: index, code: .init(error.code), message: error.description, href: error.href, cause: error)
        }
        return RenderIssue(item: index, code: .itemUnreadable, message: "item \(index): \(error)", href: nil, cause: error)
    }

    public func preopening(ofItem index: Int) -> ItemPreopening { .atStart }

    public func emptyItemIssue(at index: Int) -> RenderIssue? { nil }

    /// Whether an item may exist at `index` (always true when the count is unknown).
    func mayHaveItem(at index: Int) -> Bool {
        guard index >= 0 else { return false }
        guard let itemCount else { return true }
        return index < itemCount
    }
}

/// Why an item could not be played (entirely or to its end): a stable code, a message naming it and
/// the error it came from.
public struct RenderIssue: Sendable, Hashable, CustomStringConvertible {
    /// The item concerned.
    public var item: Int
    /// A stable word such as `track-corrupt`.
    public var code: NavigatorIssue.Code
    /// For a person, naming the href or file.
    public var message: String
    public var href: String?
    /// Whether what failed is the source itself rather than this item (a remote book's server cannot be
    /// reached after the retries): the items after it would fail the same way, so playback stops here,
    /// where the listener is, instead of skipping them to an end that was never heard.
    public var endsPlayback: Bool
    /// The error thrown by the source or a decoder (an `AudioDecoderError`, a `ResourceError`...), kept as
    /// the `NavigatorIssue`'s cause; not compared.
    public var cause: (any Error)?

    public init(item: Int, code: NavigatorIssue.Code, message: String, href: String?, endsPlayback: Bool = false,
                cause: (any Error)? = nil) {
        self.item = item
        self.code = code
        self.message = message
        self.href = href
        self.endsPlayback = endsPlayback
        self.cause = cause
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: RenderIssue, rhs: RenderIssue) -> Bool {
        (lhs.item, lhs.code, lhs.message, lhs.href, lhs.endsPlayback) == (rhs.item, rhs.code, rhs.message, rhs.href, rhs.endsPlayback)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(item)
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(href)
        hasher.combine(endsPlayback)
    }
}
