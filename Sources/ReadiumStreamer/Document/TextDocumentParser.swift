// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens a lone HTML/XHTML page or plain text file as a publication to read aloud: one resource in the
/// reading order, read by the same content service as an EPUB's documents.
///
/// An HTML page's title is its `title` (else the file's name), its language `lang`/`xml:lang` on `html`,
/// its authors the `author` (or `DC.creator`) `meta` elements, and its table of contents the `h1`–`h3`
/// headings that have an id (or hold an element that has one), as `page.html#id`. A text file is titled
/// by a `Title:` line near its top (as Project Gutenberg's texts begin), else by its name, its chapters its
/// headings (`PlainText.Paragraph.isHeading`: `CHAPTER 1. Loomings.`), with `Author:`
/// and `Language:` (a name in English or a code) lines likewise. Text whose language is declared nowhere is
/// identified from its words, the user's locale breaking ties (`userLanguage`). Either way only the file itself can
/// be read (`SingleFileContainer`): its links to other files are not followed. A remote page or text
/// (`https://host/article.html`) is fetched once and read from memory; its href is its URL.
public struct TextDocumentParser: Sendable {
    /// What finds the language of text that declares none (`EPUBContentService.languageIdentifier`).
    public var languageIdentifier: (any LanguageIdentifier)?

    public init(languageIdentifier: (any LanguageIdentifier)? = nil) {
        self.languageIdentifier = languageIdentifier
    }

    /// The publication of the page or text at `url`. `isHTML` says which it is (`ContentSniffer.Kind`).
    public func parse(url: URL, isHTML: Bool) throws(OpeningError) -> Publication {
        let container = SingleFileContainer(url: url)
        let href = (try? Href(container.href, decodingPercentEscapes: false).string) ?? container.href
        let data: Data
        do {
            data = try container.resource(at: container.href).read(maximumSize: XMLDocument.defaultMaximumSize)
        } catch {
            throw OpeningError(error)
        }
        return try parse(data, href: href, container: container, name: url.deletingPathExtension().lastPathComponent,
                         fileExtension: url.pathExtension, isHTML: isHTML, errorPath: url.path)
    }

    /// The publication of the remote page or text `data`, fetched from `url` (after redirects), held in
    /// memory: reading it makes no other request.
    public func parse(remote url: URL, data: Data, access: RemoteAccess, isHTML: Bool) throws(OpeningError) -> Publication {
        let container = SingleFileContainer(remote: url, access: access, fetched: data)
        let name = url.deletingPathExtension().lastPathComponent
        return try parse(data, href: container.href, container: container, name: name.isEmpty || name == "/" ? url.host ?? url.absoluteString : name,
                         fileExtension: url.pathExtension, isHTML: isHTML, errorPath: url.absoluteString)
    }

    private func parse(
        _ data: Data, href: String, container: SingleFileContainer, name: String, fileExtension: String, isHTML: Bool, errorPath: String
    ) throws(OpeningError) -> Publication {
        let mediaType: MediaType = !isHTML ? .text : ["xhtml", "xht"].contains(fileExtension.lowercased()) ? .xhtml : .html
        let manifest: Manifest
        if isHTML {
            let document: XMLDocument
            do {
                document = try XMLDocument(data: data, href: href, mode: mediaType == .xhtml ? .recovering : .html)
            } catch {
                throw OpeningError(.badData, path: errorPath, message: "is not an HTML page raudio can read: \(error.message)")
            }
            // Its repairs are reported by the content service when it reads the page, not here a first time.
            manifest = Self.manifest(of: document, href: href, type: mediaType, name: name)
        } else {
            manifest = Self.manifest(ofText: PlainText.decode(data), href: href, name: name)
        }
        let publication = Publication(manifest: manifest, container: container, mediaType: mediaType)
        return EPUBContentService.attach(to: publication, languageIdentifier: languageIdentifier, fallbackLanguage: Self.userLanguage())
    }

    /// Lines of a text's top where `Title:`, `Author:` and `Language:` are looked for.
    static let headerLines = 60

    static func manifest(ofText text: String, href: String, name: String) -> Manifest {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n", maxSplits: headerLines, omittingEmptySubsequences: false).prefix(headerLines) {
            for key in ["Title", "Author", "Language"] where fields[key] == nil && line.hasPrefix(key + ":") {
                let value = line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { fields[key] = value }
            }
        }
        let title = fields["Title"] ?? name
        let link = Link(href: href, type: MediaType.text.string, title: title)
        let authors = fields["Author"].map { [Contributor(name: .plain($0))] }
        let language = fields["Language"].flatMap(languageCode(named:))
        let metadata = Metadata(title: .plain(title), languages: language.map { [$0] } ?? [], contributors: authors.map { ["author": $0] } ?? [:])
        let toc = chapterHeadings(in: PlainText.paragraphs(of: text)).map { heading in
            Link(href: href + "#" + heading.id, type: MediaType.text.string, title: heading.text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }
        return Manifest(metadata: metadata, readingOrder: [link], tableOfContents: toc.isEmpty ? [link] : toc)
    }

    /// The headings of `paragraphs` that start chapters: not the entries of a list of contents (three headings
    /// or more in a row, nothing between them) whose chapter has its own heading elsewhere, or `chapter 3`
    /// would go to the list, at the top of a Project Gutenberg text, rather than to the chapter. A list that runs
    /// straight into its first chapter (its last heading one of its own entries again) ends before that heading.
    static func chapterHeadings(in paragraphs: [PlainText.Paragraph]) -> [PlainText.Paragraph] {
        let key = { (paragraph: PlainText.Paragraph) in
            paragraph.text.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
        }
        let isHeading = paragraphs.map(\.isHeading)
        var inList = [Bool](repeating: false, count: paragraphs.count)
        var start = 0
        while start < paragraphs.count {
            guard isHeading[start] else { start += 1; continue }
            var end = start
            while end + 1 < paragraphs.count, isHeading[end + 1] { end += 1 }
            if end - start >= 2 {
                let entries = Set(paragraphs[start..<end].map(key))
                let last = entries.contains(key(paragraphs[end])) ? end - 1 : end
                for index in start...last { inList[index] = true }
            }
            start = end + 1
        }
        let headedElsewhere = Set(paragraphs.indices.filter { isHeading[$0] && !inList[$0] }.map { key(paragraphs[$0]) })
        return paragraphs.indices.filter { isHeading[$0] && !(inList[$0] && headedElsewhere.contains(key(paragraphs[$0]))) }.map { paragraphs[$0] }
    }

    /// The ISO 639 code of a language named in English (`French` → `fr`), or of a code given as such; nil
    /// for a name Foundation's locale data does not know.
    static func languageCode(named name: String) -> String? {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return nil }
        let english = Locale(identifier: "en")
        let codes = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
        if codes.contains(wanted) { return wanted }
        return codes.first { english.localizedString(forLanguageCode: $0)?.lowercased() == wanted }
    }

    /// The language of the user's locale (`LC_ALL`, else `LC_MESSAGES`, else `LANG`: `fr_FR.UTF-8` → `fr`);
    /// nil for the C and POSIX locales. Text that declares no language and whose language its words do not
    /// tell apart (English and Scots) is taken in it.
    public static func userLanguage(environment: [String: String] = ProcessInfo.processInfo.environment) -> Language? {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return nil }
        let code = value.prefix { $0.isLetter }.lowercased()
        guard code.count >= 2, code != "c", code != "posix" else { return nil }
        return Language(code: code)
    }

    static func manifest(of document: XMLDocument, href: String, type: MediaType, name: String) -> Manifest {
        let root = document.root
        let head = root.firstChild("head")
        let pageTitle = head?.firstChild("title")?.normalizedText ?? ""
        let title = pageTitle.isEmpty ? name : pageTitle
        let authors = (head?.children("meta") ?? []).filter { meta in
            ["author", "dc.creator"].contains(meta.attribute("name")?.lowercased() ?? "")
        }.compactMap { $0.attribute("content")?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let link = Link(href: href, type: type.string, title: title)
        var toc: [Link] = []
        root.forEachDescendant { element in
            guard ["h1", "h2", "h3"].contains(element.localName.lowercased()) else { return }
            let heading = element.normalizedText
            guard !heading.isEmpty, let id = element.attribute("id") ?? element.descendants.lazy.compactMap({ $0.attribute("id") }).first else { return }
            toc.append(Link(href: href + "#" + id, type: type.string, title: heading))
        }
        let language = root.declaredLanguage.flatMap { $0.isEmpty ? nil : $0 }
        let metadata = Metadata(title: .plain(title), languages: language.map { [$0] } ?? [],
                                contributors: authors.isEmpty ? [:] : ["author": authors.map { Contributor(name: .plain($0)) }])
        return Manifest(metadata: metadata, readingOrder: [link], tableOfContents: toc.isEmpty ? [link] : toc)
    }
}
