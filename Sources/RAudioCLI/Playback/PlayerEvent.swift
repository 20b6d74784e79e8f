// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import ReadiumNavigator
import RAudioEngine
import ReadiumShared

/// The JSON-lines events of streaming commands (docs/events.md, docs/events.schema.json).
///
/// Each builder returns the event object with `"v": 1` and `"type"` first; `EventWriter` prints it.
enum PlayerEvent {
    static let version: JSONValue = 1

    /// Every kind of event raudio prints, by its `type`: the one list the builders below, `--events`,
    /// the IPC `hello` and docs/events.schema.json (checked by EventsSchemaTests) agree on.
    enum Kind: String, CaseIterable, Sendable {
        case opened, state, position, track, warning, error, ack, utterance, range, bookmark, bookmarks, sleep, chapter, toc,
             settings, hello, listening
    }

    static func opened(_ publication: Publication, duration: Double?) -> JSONValue {
        var summary = JSONObject()
        summary["title"] = .string(publication.title)
        summary["language"] = .array(publication.metadata.languages.map(JSONValue.string))
        let authors = publication.metadata.authors.map(\.name.string)
        if !authors.isEmpty { summary["authors"] = .array(authors.map(JSONValue.string)) }
        let narrators = publication.metadata.narrators.map(\.name.string)
        if !narrators.isEmpty { summary["narrators"] = .array(narrators.map(JSONValue.string)) }
        summary["readingOrderCount"] = .integer(Int64(publication.readingOrder.count))
        if let duration { summary["duration"] = .number(of: duration) }
        summary["toc"] = .array(publication.tableOfContents.map(tocEntry))
        return event(.opened, ["publication": .object(summary)])
    }

    static func state(_ state: PlaybackState, locator: Locator?) -> JSONValue {
        var fields: JSONObject = ["state": .string(state.name)]
        if let locator { fields["locator"] = locator.json }
        return event(.state, fields)
    }

    /// The listener's settings: once after `opened`, then whenever one changes. `pitch` and `voice`
    /// for text-to-speech only.
    static func settings(_ settings: PlayerSettings) -> JSONValue {
        var fields: JSONObject = ["speed": .number(of: settings.speed), "volume": .number(of: settings.volume)]
        if let pitch = settings.pitch { fields["pitch"] = .number(of: pitch) }
        if let voice = settings.voice { fields["voice"] = .string(voice) }
        return event(.settings, fields)
    }

    static func position(_ locator: Locator) -> JSONValue {
        event(.position, ["locator": locator.json])
    }

    static func track(index: Int, link: Link, locator: Locator) -> JSONValue {
        var fields: JSONObject = ["index": .integer(Int64(index)), "href": .string(link.href)]
        if let title = link.title { fields["title"] = .string(title) }
        fields["locator"] = locator.json
        return event(.track, fields)
    }

    /// Text-to-speech starts an utterance.
    /// `engine` is the engine of `voice`: "piper" for a neural Piper voice, "espeak" for eSpeak NG (also
    /// the per-span fallback of a Piper session, for a language its voice does not speak).
    static func utterance(text: String, language: String, voice: String, locator: Locator) -> JSONValue {
        let engine = voice.hasPrefix(PiperVoiceFile.identifierPrefix) ? "piper" : "espeak"
        return event(.utterance, ["text": .string(text), "language": .string(language), "voice": .string(voice),
                                   "engine": .string(engine), "locator": locator.json])
    }

    /// Media overlays: a `par` (or a passage read with text-to-speech in a narrated book) starts.
    static func narration(text: String, language: String?, locator: Locator) -> JSONValue {
        var fields: JSONObject = ["text": .string(text), "narration": .bool(true), "locator": locator.json]
        if let language { fields["language"] = .string(language) }
        return event(.utterance, fields)
    }

    /// Text-to-speech reaches a word: the locator's `text.highlight` is the word.
    static func range(_ locator: Locator) -> JSONValue {
        event(.range, ["locator": locator.json])
    }

    /// The sleep timer: `set`, `running` (each minute), `fading` (its last seconds), `fired` (paused), `off`.
    static func sleep(_ state: String, remaining: Double?, untilChapterEnd: Bool = false, locator: Locator? = nil) -> JSONValue {
        var fields: JSONObject = ["state": .string(state)]
        if let remaining { fields["remaining"] = .number(of: remaining) }
        if untilChapterEnd { fields["until"] = "chapter" }
        if let locator { fields["locator"] = locator.json }
        return event(.sleep, fields)
    }

    /// The table-of-contents entry being heard changed (`index` counts from 0 here, from 1 in the event).
    static func chapter(_ entry: ChapterMap.Entry, index: Int, locator: Locator) -> JSONValue {
        var fields = tocFields(entry, index: index)
        fields["locator"] = locator.json
        return event(.chapter, fields)
    }

    /// The table of contents in reading order, the entry being heard marked `current`.
    static func toc(_ entries: [ChapterMap.Entry], current: Int?) -> JSONValue {
        let listed: [JSONValue] = entries.enumerated().map { index, entry in
            var fields = tocFields(entry, index: index)
            fields["current"] = .bool(index == current)
            return .object(fields)
        }
        return event(.toc, ["entries": .array(listed)])
    }

    private static func tocFields(_ entry: ChapterMap.Entry, index: Int) -> JSONObject {
        var fields: JSONObject = ["index": .integer(Int64(index + 1)), "title": .string(entry.title), "href": .string(entry.href), "depth": .integer(Int64(entry.depth))]
        if let start = entry.start { fields["start"] = .number(of: start) }
        return fields
    }

    /// A bookmark was made (`bookmark`), or one of a `bookmarks` list.
    static func bookmark(_ bookmark: Bookmark) -> JSONValue {
        event(.bookmark, bookmarkFields(bookmark))
    }

    /// The book's bookmarks, oldest first.
    static func bookmarks(_ bookmarks: [Bookmark]) -> JSONValue {
        event(.bookmarks, ["bookmarks": .array(bookmarks.map { .object(bookmarkFields($0)) })])
    }

    static func bookmarkFields(_ bookmark: Bookmark) -> JSONObject {
        var fields: JSONObject = ["id": .integer(bookmark.id)]
        fields["locator"] = (try? JSONParser.parse(bookmark.locator)) ?? .null
        fields["note"] = bookmark.note.map(JSONValue.string) ?? .null
        fields["created"] = .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: bookmark.created)))
        return fields
    }

    /// A `warning` (non-fatal) or `error` event.
    static func issue(
        _ type: String, code: String, message: String, fatal: Bool, href: String? = nil, locator: Locator? = nil,
        id: CommandID? = nil
    ) -> JSONValue {
        var fields: JSONObject = ["code": .string(code), "message": .string(message)]
        if let href { fields["href"] = .string(href) }
        fields["fatal"] = .bool(fatal)
        if let locator { fields["locator"] = locator.json }
        if let id { fields["id"] = id.json }
        return event(type == "warning" ? .warning : .error, fields)
    }

    /// `listening`: where the IPC server took clients (a port 0 replaced by the one picked).
    /// `page`: the read-along page served on this address (`--web`), if any.
    static func listening(_ address: IPCAddress, page: String? = nil) -> JSONValue {
        var fields: JSONObject = ["address": .string(address.description)]
        if let page { fields["page"] = .string(page) }
        return event(.listening, fields)
    }

    static func ack(_ command: PlayerCommand, id: CommandID?) -> JSONValue {
        var fields: JSONObject = ["command": .string(command.name)]
        if let id { fields["id"] = id.json }
        return event(.ack, fields)
    }

    private static func event(_ kind: Kind, _ fields: JSONObject) -> JSONValue {
        var object: JSONObject = ["v": version, "type": .string(kind.rawValue)]
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }

    private static func tocEntry(_ link: Link) -> JSONValue {
        var entry: JSONObject = ["href": .string(link.href)]
        if let title = link.title { entry["title"] = .string(title) }
        if !link.children.isEmpty { entry["children"] = .array(link.children.map(tocEntry)) }
        return .object(entry)
    }
}

extension CommandID {
    /// The id as it came: a string, or a number (whole numbers without a fraction).
    var json: JSONValue {
        switch self {
        case .string(let string): .string(string)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(of: number)
        }
    }
}
