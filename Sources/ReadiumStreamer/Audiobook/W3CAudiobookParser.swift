// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens W3C Audiobooks and other W3C Publication Manifests (`publication.json`, alone in a folder or at
/// the root of an `.lpf` ZIP), mapping them to the Readium model as Thorium does.
///
/// `name` becomes the title, `author`/`readBy`/`publisher` the contributors (`readBy` as narrators),
/// `inLanguage` the languages, `datePublished`/`dateModified` the dates, `id` (or `url`) the identifier,
/// ISO 8601 `duration`s seconds. `readingOrder` and `resources` items (a URL string or a
/// `LinkedResource` with `url`, `encodingFormat`, `name`, `duration`, `rel`) become links; `rel: cover`
/// stays the cover. The table of contents is the reading order, titled by the items' names. Mistakes are
/// warnings naming the key; a manifest with no reading order is refused.
public struct W3CAudiobookParser: Sendable {
    /// The manifest's name in a W3C package (`.lpf`).
    public static let manifestHref = "publication.json"

    public init() {}

    /// Whether `object` is a W3C Publication Manifest rather than a Readium one: its `@context` names
    /// the W3C publication context, or it conforms to W3C Audiobooks, and it has no Readium `metadata`.
    public static func isW3CManifest(_ object: JSONObject) -> Bool {
        guard object["metadata"] == nil else { return false }
        let contexts = (object["@context"]?.arrayValue ?? object["@context"].map { [$0] } ?? []).compactMap(\.stringValue)
        if contexts.contains(where: { $0.hasPrefix("https://www.w3.org/ns/pub-context") || $0.hasPrefix("https://www.w3.org/ns/wp-context") }) { return true }
        let conformsTo = (object["conformsTo"]?.arrayValue ?? object["conformsTo"].map { [$0] } ?? []).compactMap(\.stringValue)
        return conformsTo.contains { $0.hasPrefix("https://www.w3.org/TR/audiobooks") }
    }

    /// Parses the manifest at `manifestHref` in `container`; `errorPath` names it in errors.
    public func parse(container: any Container, manifestHref: String, errorPath: String, mediaType: MediaType) throws(OpeningError) -> Publication {
        let data: Data
        do {
            data = try container.resource(at: manifestHref).read(maximumSize: ReadiumManifestParser.maximumManifestSize)
        } catch {
            throw OpeningError(error)
        }
        return try parse(manifestData: data, container: container, manifestHref: manifestHref, errorPath: errorPath, mediaType: mediaType)
    }

    /// Parses `data`, the manifest at `manifestHref` in `container`, already read (a remote manifest,
    /// fetched once); `errorPath` names it in errors.
    public func parse(manifestData data: Data, container: any Container, manifestHref: String, errorPath: String, mediaType: MediaType) throws(OpeningError) -> Publication {
        let object: JSONObject
        do {
            guard let parsed = try JSONParser.parse(data).objectValue else {
                throw OpeningError(.badData, path: errorPath, message: "is not a JSON object")
            }
            object = parsed
        } catch let error as JSONParser.SyntaxError {
            throw OpeningError(.badData, path: errorPath, message: "is not valid JSON: \(error)")
        } catch let error as OpeningError {
            throw error
        } catch {
            throw OpeningError(.badData, path: errorPath, message: "\(error)")
        }
        let log = WarningLog()
        let reader = LenientJSONReader(object, source: manifestHref, log: log)
        let readingOrder = links(reader, key: "readingOrder")
        guard !readingOrder.isEmpty else {
            throw OpeningError(.badData, path: errorPath, message: "its readingOrder is missing or empty: there is nothing to play")
        }
        let resources = links(reader, key: "resources")
        let isAudiobook = strings(object["type"]).contains("Audiobook")
            || strings(object["conformsTo"]).contains { $0.hasPrefix("https://www.w3.org/TR/audiobooks") }
            || readingOrder.allSatisfy { $0.type?.hasPrefix("audio/") == true }
        var contributors: [String: [Contributor]] = [:]
        for (w3cKey, role) in [("author", "author"), ("readBy", "narrator"), ("publisher", "publisher"), ("translator", "translator"), ("editor", "editor")] {
            let people = persons(object[w3cKey])
            if !people.isEmpty { contributors[role] = people }
        }
        let metadata = Metadata(
            type: isAudiobook ? "http://schema.org/Audiobook" : "http://schema.org/Book",
            conformsTo: isAudiobook ? ["https://readium.org/webpub-manifest/profiles/audiobook"] : [],
            identifier: object["id"]?.stringValue ?? object["url"]?.stringValue,
            title: localized(object["name"]) ?? .plain(container.sourceURL.deletingPathExtension().lastPathComponent),
            modified: object["dateModified"]?.stringValue, published: object["datePublished"]?.stringValue,
            languages: strings(object["inLanguage"]) + Self.contextLanguage(object),
            contributors: contributors,
            readingProgression: object["readingProgression"]?.stringValue,
            description: object["description"]?.stringValue ?? object["abstract"]?.stringValue,
            duration: Self.seconds(object["duration"], key: "duration", reader: reader)
        )
        var manifest = Manifest(metadata: metadata, readingOrder: readingOrder, resources: resources,
                                tableOfContents: readingOrder.map { link in
                                    Link(href: link.href, title: link.title ?? ((link.href as NSString).lastPathComponent as NSString).deletingPathExtension)
                                })
        var normalizer = ManifestHrefNormalizer(manifestHref: manifestHref, log: log)
        manifest = normalizer.normalize(manifest)
        return Publication(manifest: manifest, container: container, mediaType: mediaType, warnings: log.warnings)
    }

    // MARK: - W3C values

    /// The items of `readingOrder` or `resources`: URL strings or `LinkedResource` objects.
    private func links(_ reader: LenientJSONReader, key: String) -> [Link] {
        guard let value = reader.object[key] else { return [] }
        let items = value.arrayValue ?? [value]
        return items.enumerated().compactMap { index, item -> Link? in
            if let url = item.stringValue { return Link(href: url, type: MediaType.forFileExtension((url as NSString).pathExtension)?.string) }
            guard let object = item.objectValue, let url = object["url"]?.stringValue else {
                reader.warn(key, "item \(index) has no url; left out")
                return nil
            }
            let type = object["encodingFormat"]?.stringValue ?? MediaType.forFileExtension((url as NSString).pathExtension)?.string
            let itemReader = LenientJSONReader(object, source: reader.source, path: reader.path(of: key) + "[\(index)]", log: reader.log)
            return Link(href: url, type: type, title: localized(object["name"])?.string, rels: strings(object["rel"]),
                        duration: Self.seconds(object["duration"], key: "duration", reader: itemReader))
        }
    }

    private func strings(_ value: JSONValue?) -> [String] {
        guard let value else { return [] }
        return (value.arrayValue ?? [value]).compactMap(\.stringValue)
    }

    /// A W3C localizable string: a string, `{"value", "language"}`, or an array of them.
    private func localized(_ value: JSONValue?) -> LocalizedString? {
        guard let value else { return nil }
        let items = value.arrayValue ?? [value]
        var translations: [(String, JSONValue)] = []
        for item in items {
            if let text = item.stringValue { return .plain(text) }
            if let object = item.objectValue, let text = object["value"]?.stringValue {
                translations.append((object["language"]?.stringValue ?? "und", .string(text)))
            }
        }
        guard !translations.isEmpty else { return nil }
        return translations.count == 1 ? .plain(translations[0].1.stringValue ?? "") : .localized(JSONObject(translations))
    }

    /// W3C persons: a name string, `{"name": ...}` (a `Person` or `Organization`), or an array of them.
    private func persons(_ value: JSONValue?) -> [Contributor] {
        guard let value else { return [] }
        return (value.arrayValue ?? [value]).compactMap { item in
            if let name = item.stringValue { return Contributor(name: .plain(name)) }
            guard let object = item.objectValue, let name = localized(object["name"]) else { return nil }
            return Contributor(name: name, identifier: object["id"]?.stringValue ?? object["url"]?.stringValue)
        }
    }

    /// The `language` of the `@context`'s object (`{"language": "en"}`), the publication's default.
    private static func contextLanguage(_ object: JSONObject) -> [String] {
        guard let contexts = object["@context"]?.arrayValue else { return [] }
        return contexts.compactMap { $0.objectValue?["language"]?.stringValue }.prefix(1).map { $0 }
    }

    /// Seconds of an ISO 8601 duration (`PT1H2M3.5S`, `P1DT2H`), or of a plain number; a warning and
    /// nil for anything else.
    static func seconds(_ value: JSONValue?, key: String, reader: LenientJSONReader) -> Double? {
        guard let value else { return nil }
        if let number = value.doubleValue { return number >= 0 ? number : nil }
        guard let text = value.stringValue, let seconds = iso8601Seconds(text) else {
            reader.warn(key, "is not an ISO 8601 duration (PT1H2M3S); ignored")
            return nil
        }
        return seconds
    }

    static func iso8601Seconds(_ text: String) -> Double? {
        var rest = Substring(text.uppercased())
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var sawField = false
        for character in rest {
            if character == "T" {
                guard number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
                continue
            }
            guard let value = Double(number) else { return nil }
            number = ""
            sawField = true
            switch (character, inTime) {
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3_600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil  // years and months have no fixed length in seconds
            }
        }
        return number.isEmpty && sawField ? total : nil
    }
}
