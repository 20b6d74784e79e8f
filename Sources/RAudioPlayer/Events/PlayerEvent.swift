// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import ReadiumNavigator
import ReadiumShared

/// What a listening session tells whoever follows it: an app, the terminal, the desktop, IPC clients.
///
/// Typed values inside the process; they become the JSON lines of docs/events.md
/// (docs/events.schema.json) only where they leave it, through `json` (PlayerEvent+JSON.swift):
/// the stdout writer and the IPC server.
public enum PlayerEvent: Sendable {
    /// The version of the events' JSON (`"v"`): bumped when a field changes meaning.
    public static let version = 1

    /// A publication was opened.
    case opened(OpenedPublication)
    /// The playback state changed, or `status` was asked. `buffer`: seconds of audio fetched ahead
    /// (a remote book, `status` only).
    case state(PlaybackState, locator: Locator?, audioLocator: Locator? = nil, buffer: Double? = nil)
    /// The position moved (about twice a second while playing).
    case position(Locator, audioLocator: Locator? = nil)
    /// An audiobook's track changed.
    case track(index: Int, link: Link, locator: Locator)
    /// Text-to-speech starts an utterance with `voice`, in `language`, which `languageSource` says where it
    /// comes from (declared by the content, identified from its text, the user's, the publication's, forced).
    case utterance(text: String, language: String, voice: String, locator: Locator, languageSource: LanguageSource? = nil)
    /// Text-to-speech reaches an `audio` or `video` element of the page and plays it in place from
    /// `source` (JSON: an `utterance` with `media` and empty `text`).
    case media(kind: EmbeddedMediaKind, source: Link, locator: Locator)
    /// Media overlays: a `par` (or a passage read with text-to-speech in a narrated book) starts.
    case narration(text: String, language: String?, locator: Locator, audioLocator: Locator? = nil)
    /// Text-to-speech reaches a word: the locator's `text.highlight` is the word.
    case range(Locator)
    /// Something went wrong and playback goes on.
    case warning(PlayerIssue)
    /// A command was refused, or (`fatal`) playback cannot go on.
    case error(PlayerIssue)
    /// A command was accepted.
    case ack(PlayerCommand, id: CommandID?)
    /// A bookmark was made.
    case bookmark(Bookmark)
    /// The book's bookmarks, oldest first.
    case bookmarks([Bookmark])
    /// The sleep timer changed or counts down.
    case sleep(SleepEvent)
    /// The table-of-contents entry being heard changed (`index` counts from 0 here, from 1 in the JSON).
    case chapter(ChapterMap.Entry, index: Int, locator: Locator)
    /// The table of contents in reading order, the entry being heard `current`.
    case toc([ChapterMap.Entry], current: Int?)
    /// The listener's settings: once after `opened`, then whenever one changes.
    case settings(PlayerSettings)
    /// An IPC client connected: what it needs to catch up (`settings`: the last `settings` event's, once sent).
    case hello(state: PlaybackState, publication: OpenedPublication?, locator: Locator?, settings: PlayerSettings? = nil)
    /// Where the IPC server took clients (a port 0 replaced by the one picked); `page`: the read-along
    /// page served there (`--web`).
    case listening(address: String, page: String?)

    /// Every kind of event, by its JSON `type`: the one list `--events`, the IPC `hello` and
    /// docs/events.schema.json (checked by EventTypesSchemaTests) agree on.
    public enum Kind: String, CaseIterable, Sendable {
        case opened, state, position, track, warning, error, ack, utterance, range, bookmark, bookmarks, sleep, chapter, toc,
             settings, hello, listening
    }

    public var kind: Kind {
        switch self {
        case .opened: .opened
        case .state: .state
        case .position: .position
        case .track: .track
        case .utterance, .narration, .media: .utterance
        case .range: .range
        case .warning: .warning
        case .error: .error
        case .ack: .ack
        case .bookmark: .bookmark
        case .bookmarks: .bookmarks
        case .sleep: .sleep
        case .chapter: .chapter
        case .toc: .toc
        case .settings: .settings
        case .hello: .hello
        case .listening: .listening
        }
    }

    /// Where the event places the listener, if it does (not a `range`'s word, not an issue's).
    public var locator: Locator? {
        switch self {
        case .state(_, let locator, _, _), .hello(_, _, let locator, _): locator
        case .position(let locator, _), .track(_, _, let locator), .utterance(_, _, _, let locator, _),
             .narration(_, _, let locator, _), .media(_, _, let locator), .chapter(_, _, let locator):
            locator
        case .sleep(let sleep): sleep.locator
        default: nil
        }
    }

    /// The `opened` event of `publication`; `duration`: its length in seconds, when known (audio).
    public static func opened(_ publication: Publication, duration: Double?) -> PlayerEvent {
        .opened(OpenedPublication(publication, duration: duration))
    }

    /// A `warning` or an `error` event.
    public static func issue(
        _ severity: PlayerIssue.Severity, code: String, message: String, fatal: Bool = false, href: String? = nil,
        locator: Locator? = nil, id: CommandID? = nil
    ) -> PlayerEvent {
        let issue = PlayerIssue(code: code, message: message, fatal: fatal, href: href, locator: locator, id: id)
        return severity == .error ? .error(issue) : .warning(issue)
    }
}

/// What the `opened` event says of a publication.
public struct OpenedPublication: Sendable, Equatable {
    public var title: String
    public var languages: [String]
    public var authors: [String]
    public var narrators: [String]
    public var readingOrderCount: Int
    /// Seconds, when known (audio).
    public var duration: Double?
    /// The table of contents as the publication gives it, nested.
    public var tableOfContents: [Link]
    /// Media overlays: the class of the element being read (`media:active-class`), when the package names one.
    public var activeClass: String?
    /// Media overlays: the class of the document while narration plays (`media:playback-active-class`).
    public var playbackActiveClass: String?

    public init(_ publication: Publication, duration: Double?) {
        title = publication.title
        languages = publication.metadata.languages
        authors = publication.metadata.authors.map(\.name.string)
        narrators = publication.metadata.narrators.map(\.name.string)
        readingOrderCount = publication.readingOrder.count
        self.duration = duration
        tableOfContents = publication.tableOfContents
        let mediaOverlay = publication.metadata.otherMetadata["mediaOverlay"]?.objectValue
        activeClass = mediaOverlay?["activeClass"]?.stringValue
        playbackActiveClass = mediaOverlay?["playbackActiveClass"]?.stringValue
    }
}

/// A `warning` or `error`: a stable `code` (docs/events.md), a message for people, and where.
public struct PlayerIssue: Sendable {
    public enum Severity: Sendable { case warning, error }

    public var code: String
    public var message: String
    /// Playback cannot go on (errors only).
    public var fatal: Bool = false
    /// The resource concerned.
    public var href: String?
    public var locator: Locator?
    /// The command refused, as its sender numbered it.
    public var id: CommandID?

    public init(code: String, message: String, fatal: Bool = false, href: String? = nil, locator: Locator? = nil, id: CommandID? = nil) {
        (self.code, self.message, self.fatal, self.href, self.locator, self.id) = (code, message, fatal, href, locator, id)
    }
}

/// A `sleep` event.
public struct SleepEvent: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Set by a command or `--sleep` (`remaining` seconds, or until the chapter's end).
        case set
        /// Each minute while it counts down.
        case running
        /// Its last seconds: the volume fades.
        case fading
        /// Playback was paused.
        case fired
        /// Cancelled.
        case off
    }

    public var state: State
    public var remaining: Double?
    public var untilChapterEnd = false
    public var locator: Locator?

    public init(state: State, remaining: Double? = nil, untilChapterEnd: Bool = false, locator: Locator? = nil) {
        (self.state, self.remaining, self.untilChapterEnd, self.locator) = (state, remaining, untilChapterEnd, locator)
    }
}
