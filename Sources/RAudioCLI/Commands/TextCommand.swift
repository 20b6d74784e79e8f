// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared
import ReadiumStreamer

/// `raudio text PATH`: prints what the speech synthesizer would say, one JSON line per utterance.
///
/// Each line is an object with `text`, `language` (BCP-47, `und` when unknown), `role` (a stable
/// `ContentRole.name`) and `locator` (Readium Locator JSON narrowed to the utterance); an `audio` or `video`
/// element, which `speak` plays, is a line with `"text": ""` and `media` (see `appendJSONLine`). Warnings go
/// to stderr. Exit codes: 64 for a bad option, 65 for a publication or locator that cannot be used,
/// 66 when PATH does not exist.
struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Print the utterances of an EPUB, an HTML page or a text file as JSON lines: text, language, role and locator."
    )

    @Argument(help: "An EPUB file or unpacked EPUB folder, an HTML page or a text file (UTF-8, UTF-16 or Windows-1252; a paragraph between blank lines), or the http(s) URL of one.")
    var path: String

    @Option(help: "Where to start: a Locator as JSON, a percentage of the publication such as 42%, or a file of the reading order (OPS/chapter_003.xhtml#id, as raudio info shows it).")
    var from: String?

    @Option(help: "The unit of each utterance: sentence, word or paragraph.")
    var unit: String = "sentence"

    @Option(help: "Comma-separated roles to skip, among: \(ContentRole.allNames.joined(separator: ", ")); media for audio and video.")
    var skip: String = ""

    @OptionGroup(title: "LCP-protected books") var lcp: LCPOptions

    func validate() throws {
        guard TextUnit(rawValue: unit) != nil else {
            throw ValidationError("unknown unit '\(unit)'; use sentence, word or paragraph")
        }
        do {
            _ = try ContentRole.names(inList: skip)
        } catch {
            throw ValidationError("--skip: \(error.message)")
        }
    }

    /// The roles `--skip` names (validated by `validate()`), `media` standing for `audio` and `video`.
    private var skippedRoles: Set<String> { (try? ContentRole.names(inList: skip)) ?? [] }

    func run() throws {
        try lcp.apply()
        // The content service warns about a malformed document when it reads it: not a second time on opening.
        let publication = try PublicationLoading.open(path: path, checksContentDocuments: false, prefersText: true)
        guard (try? publication.content(from: nil)) != nil else {
            throw CommandFailure.badData("\(path): has no text (\(publication.mediaType)); raudio text reads EPUBs, HTML pages and text files")
        }
        // The opener's service (an EPUB's, a text file's with the user's language), else one of its own.
        let service = publication.extensions[ContentServiceKey.key] as? EPUBContentService
            ?? EPUBContentService(publication: publication, languageIdentifier: TextCatLanguageIdentifier.shared)
        let start = try startLocator(service: service, publication: publication)
        // An LCP licence's `copy` right: the characters handed out are counted down against it (lcp-net).
        let copyBudget = try LCPCopyBudget.make(for: publication, path: path)
        let content: any Content
        do {
            content = try service.content(from: start)
        } catch {
            throw CommandFailure.badData("\(path): --from: \(error)")
        }
        let tokenizer = ContentTokenizer(unit: TextUnit(rawValue: unit)!, defaultLanguage: service.defaultLanguage)
        let skipped = skippedRoles
        let iterator = content.iterator()
        var resumeLocator = start
        // Lines are gathered and written about 64 KiB at a time (a book is tens of thousands of lines).
        var pending: [UInt8] = []
        pending.reserveCapacity(Self.writeSize + 4096)
        while var element = try nextElement(iterator) {
            guard !skipped.contains(element.role.name) else { continue }
            // Inline runs (note references) stay in the text unless `--skip` names their role.
            if let text = element as? TextContentElement { element = text.removingInlineRuns(withRoles: skipped) }
            // The first element starts at the utterance `--from` points at, when it names one.
            let utterances = resumeLocator.map { tokenizer.tokenize(element, resumingAt: $0) } ?? tokenizer.tokenize(element)
            resumeLocator = nil
            for utterance in utterances {
                if let copyBudget, !copyBudget.take(utterance.spokenText?.count ?? 0) {
                    try copyBudget.commit()
                    _ = Self.write(&pending)
                    throw copyBudget.spent()
                }
                Self.appendJSONLine(for: utterance, defaultLanguage: service.defaultLanguage, to: &pending)
            }
            if pending.count >= Self.writeSize {
                try copyBudget?.commit()
                guard Self.write(&pending) else { return }  // The reader of stdout went away.
            }
        }
        try copyBudget?.commit()
        guard Self.write(&pending) else { return }
        for warning in publication.warnings + service.warnings.warnings {
            StandardStreams.printError("raudio: warning: \(warning)")
        }
    }

    private func nextElement(_ iterator: any ContentIterator) throws(CommandFailure) -> (any ContentElement)? {
        do {
            return try iterator.next()
        } catch {
            throw CommandFailure.badData("\(path): \(error)")
        }
    }

    /// The `--from` option as a locator: JSON, or a percentage turned into a locator by the service.
    private func startLocator(service: EPUBContentService, publication: Publication) throws -> Locator? {
        guard let from = from?.trimmingCharacters(in: .whitespaces), !from.isEmpty else { return nil }
        if from.hasSuffix("%") {
            guard let percent = Double(from.dropLast()), (0...100).contains(percent) else {
                throw CommandFailure.usage("--from '\(from)': a percentage must be between 0% and 100%")
            }
            return service.locator(atTotalProgression: percent / 100)
        }
        if !from.hasPrefix("{") {
            return try StartPosition.locator(href: from, in: publication).get()
        }
        do {
            return try Locator(jsonString: from, source: "--from")
        } catch {
            throw CommandFailure.usage("--from: \(error); give a Locator as JSON, a percentage such as 42% or a file of the reading order")
        }
    }

    /// How many bytes of lines are gathered before they are written out.
    private static let writeSize = 64 * 1024

    /// Writes `pending` to stdout and empties it; false when the reader of stdout went away.
    private static func write(_ pending: inout [UInt8]) -> Bool {
        defer { pending.removeAll(keepingCapacity: true) }
        guard !pending.isEmpty else { return true }
        do {
            try StandardStreams.printLine(bytes: pending)
            return true
        } catch {
            return false
        }
    }

    /// Appends the JSON line of one utterance, newline included, to `bytes`; nothing for an element
    /// with nothing to say (an image without alt text). An `audio` or `video` element, which `speak` plays in
    /// place, is a media entry, as its `utterance` event is: `"text": ""`, its role, and `media` (`kind`, and the
    /// `href` and `type` of its first source; `sources`, every source in document order, when it has several).
    static func appendJSONLine(for element: any ContentElement, defaultLanguage: Language?, to bytes: inout [UInt8]) {
        if let media = mediaEntry(for: element) {
            var object = JSONObject()
            object["text"] = .string("")
            object["role"] = .string(element.role.name)
            object["media"] = .object(media)
            object["locator"] = element.locator.json
            JSONValue.object(object).appendCompactUTF8(to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            return
        }
        guard let text = element.spokenText, !text.isEmpty else { return }
        let segment = (element as? TextContentElement)?.segments.first
        let language = segment?.language ?? defaultLanguage
        var object = JSONObject()
        object["text"] = .string(text)
        object["language"] = .string(language?.code ?? "und")
        if let segment, segment.language != nil { object["languageSource"] = .string(segment.languageSource.rawValue) }
        object["role"] = .string(element.role.name)
        if let segment, !segment.phonemes.isEmpty, segment.text == text {
            // What a pronunciation lexicon or `ssml:ph` makes the speech engines say for the words.
            object["phonemes"] = .array(segment.phonemes.map { span in
                .object(JSONObject([("text", .string(String(text.utf8Slice(span.range)))), ("ipa", .string(span.phonemes))]))
            })
        }
        object["locator"] = element.locator.json
        JSONValue.object(object).appendCompactUTF8(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The `media` object of an `audio` or `video` element with at least one source; nil for any other element.
    private static func mediaEntry(for element: any ContentElement) -> JSONObject? {
        let kind: String, sources: [Link]
        if let audio = element as? AudioContentElement {
            (kind, sources) = ("audio", audio.sources)
        } else if let video = element as? VideoContentElement {
            (kind, sources) = ("video", video.sources)
        } else {
            return nil
        }
        guard let first = sources.first else { return nil }
        func fields(_ link: Link) -> JSONObject {
            var object: JSONObject = ["href": .string(link.href)]
            if let type = link.type { object["type"] = .string(type) }
            return object
        }
        var media: JSONObject = ["kind": .string(kind)]
        for (key, value) in fields(first) { media[key] = value }
        if sources.count > 1 { media["sources"] = .array(sources.map { .object(fields($0)) }) }
        return media
    }
}
