// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioState
import ReadiumShared

/// The events as docs/events.md gives them: one JSON object each, `"v"` and `"type"` first.
///
/// The only place events become JSON; the stdout writer and the IPC server send what it makes.
extension PlayerEvent {
    public var json: JSONValue {
        var object: JSONObject = ["v": .integer(Int64(Self.version)), "type": .string(kind.rawValue)]
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }

    private var fields: JSONObject {
        switch self {
        case .opened(let publication):
            return ["publication": .object(publication.json)]
        case .state(let state, let locator, let audioLocator, let buffer):
            var fields: JSONObject = ["state": .string(state.name)]
            if let locator { fields["locator"] = locator.json }
            if let audioLocator { fields["audioLocator"] = audioLocator.json }
            if let buffer { fields["buffer"] = .number(buffer) }
            return fields
        case .position(let locator, let audioLocator):
            var fields: JSONObject = ["locator": locator.json]
            if let audioLocator { fields["audioLocator"] = audioLocator.json }
            return fields
        case .track(let index, let link, let locator):
            var fields: JSONObject = ["index": .integer(Int64(index)), "href": .string(link.href)]
            if let title = link.title { fields["title"] = .string(title) }
            fields["locator"] = locator.json
            return fields
        case .utterance(let text, let language, let voice, let locator, let languageSource):
            // "piper" for a neural Piper voice, "espeak" for eSpeak NG (also the per-span fallback of a
            // Piper session, for a language its voice does not speak).
            let engine = voice.hasPrefix(PiperVoiceFile.identifierPrefix) ? "piper" : "espeak"
            var fields: JSONObject = ["text": .string(text), "language": .string(language)]
            if let languageSource { fields["languageSource"] = .string(languageSource.rawValue) }
            fields["voice"] = .string(voice)
            fields["engine"] = .string(engine)
            fields["locator"] = locator.json
            return fields
        case .media(let kind, let source, let locator):
            var media: JSONObject = ["kind": .string(kind.rawValue), "href": .string(source.href)]
            if let type = source.type { media["type"] = .string(type) }
            return ["text": .string(""), "media": .object(media), "locator": locator.json]
        case .narration(let text, let language, let locator, let audioLocator):
            var fields: JSONObject = ["text": .string(text), "narration": .bool(true), "locator": locator.json]
            if let language { fields["language"] = .string(language) }
            if let audioLocator { fields["audioLocator"] = audioLocator.json }
            return fields
        case .range(let locator):
            return ["locator": locator.json]
        case .warning(let issue), .error(let issue):
            return issue.json
        case .ack(let command, let id):
            var fields: JSONObject = ["command": .string(command.name)]
            if let id { fields["id"] = id.json }
            return fields
        case .bookmark(let bookmark):
            return bookmark.json
        case .bookmarks(let bookmarks):
            return ["bookmarks": .array(bookmarks.map { .object($0.json) })]
        case .sleep(let sleep):
            var fields: JSONObject = ["state": .string(sleep.state.rawValue)]
            if let remaining = sleep.remaining { fields["remaining"] = .number(of: remaining) }
            if sleep.untilChapterEnd { fields["until"] = "chapter" }
            if let locator = sleep.locator { fields["locator"] = locator.json }
            return fields
        case .chapter(let entry, let index, let locator):
            var fields = entry.json(index: index)
            fields["locator"] = locator.json
            return fields
        case .toc(let entries, let current):
            let listed: [JSONValue] = entries.enumerated().map { index, entry in
                var fields = entry.json(index: index)
                fields["current"] = .bool(index == current)
                return .object(fields)
            }
            return ["entries": .array(listed)]
        case .settings(let settings):
            return settings.json
        case .hello(let state, let publication, let locator, let settings):
            var fields: JSONObject = ["state": .string(state.name)]
            if let publication { fields["publication"] = .object(publication.json) }
            if let locator { fields["locator"] = locator.json }
            if let settings { fields["settings"] = .object(settings.json) }
            return fields
        case .listening(let address, let page):
            var fields: JSONObject = ["address": .string(address)]
            if let page { fields["page"] = .string(page) }
            return fields
        }
    }
}

extension OpenedPublication {
    public var json: JSONObject {
        var summary = JSONObject()
        summary["title"] = .string(title)
        summary["language"] = .array(languages.map(JSONValue.string))
        if !authors.isEmpty { summary["authors"] = .array(authors.map(JSONValue.string)) }
        if !narrators.isEmpty { summary["narrators"] = .array(narrators.map(JSONValue.string)) }
        summary["readingOrderCount"] = .integer(Int64(readingOrderCount))
        if let duration { summary["duration"] = .number(of: duration) }
        summary["toc"] = .array(tableOfContents.map(Self.tocEntry))
        if activeClass != nil || playbackActiveClass != nil {
            var classes = JSONObject()
            if let activeClass { classes["activeClass"] = .string(activeClass) }
            if let playbackActiveClass { classes["playbackActiveClass"] = .string(playbackActiveClass) }
            summary["mediaOverlay"] = .object(classes)
        }
        return summary
    }

    private static func tocEntry(_ link: Link) -> JSONValue {
        var entry: JSONObject = ["href": .string(link.href)]
        if let title = link.title { entry["title"] = .string(title) }
        if !link.children.isEmpty { entry["children"] = .array(link.children.map(tocEntry)) }
        return .object(entry)
    }
}

extension PlayerIssue {
    public var json: JSONObject {
        var fields: JSONObject = ["code": .string(code), "message": .string(message)]
        if let href { fields["href"] = .string(href) }
        fields["fatal"] = .bool(fatal)
        if let locator { fields["locator"] = locator.json }
        if let id { fields["id"] = id.json }
        return fields
    }
}

extension ChapterMap.Entry {
    public func json(index: Int) -> JSONObject {
        var fields: JSONObject = ["index": .integer(Int64(index + 1)), "title": .string(title), "href": .string(href), "depth": .integer(Int64(depth))]
        if let start { fields["start"] = .number(of: start) }
        return fields
    }
}

extension Bookmark {
    /// A bookmark as `bookmark`, `bookmarks` and `raudio bookmarks` give it.
    public var json: JSONObject {
        var fields: JSONObject = ["id": .integer(id)]
        fields["locator"] = (try? JSONParser.parse(locator)) ?? .null
        fields["note"] = note.map(JSONValue.string) ?? .null
        fields["created"] = .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: created)))
        return fields
    }
}

extension CommandID {
    /// The id as it came: a string, or a number (whole numbers without a fraction).
    public var json: JSONValue {
        switch self {
        case .string(let string): .string(string)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(of: number)
        }
    }
}

extension PlayerSettings {
    /// The fields of a `settings` event (also a `hello`'s `settings`).
    var json: JSONObject {
        var fields: JSONObject = ["speed": .number(of: speed), "volume": .number(of: volume)]
        if let pitch { fields["pitch"] = .number(of: pitch) }
        if let voice { fields["voice"] = .string(voice) }
        return fields
    }
}
