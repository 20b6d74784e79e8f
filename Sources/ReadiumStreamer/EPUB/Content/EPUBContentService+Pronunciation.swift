// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension EPUBContentService {
    /// The pronunciation lexicons for `document`: those its head links (`<link rel="pronunciation"
    /// type="application/pls+xml" hreflang=...>`), then those of the package; each read once per publication. A
    /// lexicon that cannot be read gives a warning naming its file (once), and its words are spoken as written.
    func lexicons(for document: XMLDocument) -> [PronunciationLexicon] {
        var wanted: [(href: String, language: Language?)] = []
        let links = document.root.firstChild("head")?.children("link") ?? []
        for link in links {
            let rels = (link.attribute("rel") ?? "").split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
            guard rels.contains("pronunciation"), link.attribute("type").map({ $0 == PronunciationLexicon.mediaType }) ?? true,
                  let source = link.attribute("href"), let resolved = try? Href(source, relativeTo: document.href) else { continue }
            wanted.append((resolved.path, link.attribute("hreflang").flatMap { $0.isEmpty ? nil : Language(code: $0) }))
        }
        for link in lexiconLinks {
            wanted.append((link.hrefWithoutFragment, link.languages.first.map(Language.init(code:))))
        }
        var seen: Set<String> = []
        return wanted.compactMap { entry in
            guard seen.insert(entry.href).inserted else { return nil }
            return lexicon(at: entry.href, language: entry.language)
        }
    }

    /// The lexicon at `href`, read the first time it is asked for.
    private func lexicon(at href: String, language: Language?) -> PronunciationLexicon? {
        if let known = pronunciation.withLock({ $0.lexicons[href] }) { return known }
        var found: [ParsingWarning] = []
        let lexicon: PronunciationLexicon?
        do {
            let data = try container.resource(at: href).read(maximumSize: XMLDocument.defaultMaximumSize)
            let document = try XMLDocument(data: data, href: href, mode: .strict)
            lexicon = PronunciationLexicon.parse(document, fallbackLanguage: language, warnings: &found)
        } catch {
            found.append(ParsingWarning(source: href, path: "", message: "the pronunciation lexicon cannot be read (\(error)); its words are spoken as written", kind: .pronunciation))
            lexicon = nil
        }
        pronunciation.withLock { $0.lexicons[href] = .some(lexicon) }
        report(found)
        return lexicon
    }

    /// Adds `found` to the warnings, each only once however often a resource is extracted.
    func report(_ found: [ParsingWarning]) {
        let new = pronunciation.withLock { state in found.filter { state.reported.insert($0).inserted } }
        for warning in new { warnings.append(warning) }
    }
}
