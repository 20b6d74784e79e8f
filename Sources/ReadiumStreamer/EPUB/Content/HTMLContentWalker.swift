// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The depth-first walk of `HTMLContentExtractor`: keeps the open elements and the text of the block
/// being read, and emits a draft at each block boundary.
///
/// Besides the reading text (white space collapsed, hidden parts left out) it keeps the document's own
/// text, every text and CDATA node in document order as a browser's `textContent` concatenates them,
/// and where in it each element and each run of reading text lies: locators quote that text.
final class HTMLContentWalker {
    private struct Frame {
        var isBlock: Bool
        var ownSelector: String
        var selectors: [String]
        var role: ContentRole?
        var language: Language?
        var languageSource: LanguageSource
        var figureCaption: String?
        /// The phonetic alphabet of `ssml:ph` in scope (`ssml:alphabet`, inherited), as written.
        var alphabet: String?
        /// Its index in `elementSources`.
        var serial: Int
        /// The element, its CSS path, and where the walk is in its children.
        var element: XMLElement
        var path: String
        var nextChild = 0
        var elementIndex = 0
        var rowIndex = 0
        /// HTML's parser puts each run of rows written directly in a table in a `tbody` of its own.
        var wrapsRows: Bool
        /// Its `ssml:ph`, and the block's characters before it.
        var phonemes: String?
        var phonemeStart: Int
        /// A note reference, and the block's characters before it.
        var isNoteRef: Bool
        var runStart: Int
    }

    private let href: String
    private let defaultLanguage: Language?
    /// Where `defaultLanguage` comes from (identified from the document's text, or the publication's).
    private let defaultLanguageSource: LanguageSource
    /// How many elements carry each `id`: only a unique one makes a `#id` selector.
    private let identifierCounts: [String: Int]
    private var stack: [Frame] = []
    private var runs: [HTMLTextRun] = []
    /// Inline runs of the block being read (note references), in characters of its joined `runs`.
    private var inlineRuns: [TextContentElement.InlineRun] = []
    private var pendingSelectors: Set<String> = []
    /// `ssml:ph` of the block being read: the characters of its joined `runs` they are spoken for.
    private var phonemeMarks: [(range: Range<Int>, phonemes: String)] = []
    /// The pronunciation lexicons that apply to this document (each to the text in its language).
    var lexicons: [PronunciationLexicon] = []
    /// The alphabet of `ssml:ph` where no `ssml:alphabet` is in scope: the lexicons', else the IPA.
    var defaultAlphabet = "ipa"
    /// What was worked around (an `ssml:ph` in an alphabet raudio does not know).
    private(set) var warnings: [ParsingWarning] = []
    private(set) var drafts: [HTMLContentDraft] = []
    /// The document's text: what `textContent` of its root is.
    private(set) var documentText = ""
    /// Where each element opened so far lies in `documentText` (UTF-8 offsets), by serial.
    private(set) var elementSources: [Range<Int>] = []

    /// Reads SVG `title` and `desc` elements, each a block (an SVG document whose text they are).
    var readsSVGDescriptions = false
    /// Whether rows directly in a `table` are in a `tbody` the browser adds (`HTMLContentExtractor`).
    var impliesTableBodies = false

    init(href: String, defaultLanguage: Language?, defaultLanguageSource: LanguageSource = .publication, identifierCounts: [String: Int]) {
        self.href = href
        self.defaultLanguage = defaultLanguage
        self.defaultLanguageSource = defaultLanguageSource
        self.identifierCounts = identifierCounts
    }

    private var documentLength: Int { documentText.utf8.count }

    /// Walks `element`, the `index`-th element child (from 1) of the element at `parentPath`.
    ///
    /// Iterative: the open elements are `stack`, on the heap, so that a deep tree cannot exhaust the thread's stack.
    func walk(_ element: XMLElement, parentPath: String, index: Int) {
        let base = stack.count
        enter(element, parentPath: parentPath, index: index)
        while stack.count > base {
            let top = stack.count - 1
            let next = stack[top].nextChild
            guard next < stack[top].element.children.count else {
                leave()
                continue
            }
            stack[top].nextChild += 1
            switch stack[top].element.children[next] {
            case .element(let child) where stack[top].wrapsRows && child.localName == "tr":
                if stack[top].rowIndex == 0 { stack[top].elementIndex += 1 }
                stack[top].rowIndex += 1
                enter(child, parentPath: "\(stack[top].path) > tbody:nth-child(\(stack[top].elementIndex))", index: stack[top].rowIndex)
            case .element(let child):
                stack[top].elementIndex += 1
                stack[top].rowIndex = 0
                enter(child, parentPath: stack[top].path, index: stack[top].elementIndex)
            case .text(let text), .cdata(let text):
                let start = documentLength
                documentText += text
                append(HTMLTextRun.collapsing(text, at: start, after: lastReadCharacter), language: stack[top].language, source: stack[top].languageSource)
            }
        }
    }

    /// Reads `element` whole when it has no children to walk (a `br`, an `img`, what is not read), else opens
    /// its frame on `stack` for `walk` to read its children.
    private func enter(_ element: XMLElement, parentPath: String, index: Int) {
        let isSVGDescription = element.namespaceURI == XMLNamespace.svg && ["title", "desc"].contains(element.localName)
        guard isSVGDescription ? readsSVGDescriptions : !HTMLElementRules.isSkipped(element) else {
            // Not read, but part of the page's text all the same (ruby readings, hidden text).
            documentText += element.textContent
            return
        }
        let name = element.localName
        let path: String
        if parentPath.isEmpty {
            path = name
        } else if stack.count == 1, name == "body" || name == "head" {
            path = "\(parentPath) > \(name)"
        } else {
            path = "\(parentPath) > \(name):nth-child(\(index))"
        }
        let id = element.attribute("id")
        let idSelector = id.flatMap { HTMLElementRules.isPlainIdentifier($0) && identifierCounts[$0] == 1 ? "#\($0)" : nil }
        let ownSelector = idSelector ?? path
        let fragmentID = id ?? element.attribute("id", namespace: XMLNamespace.xml)
        let selectors = [path] + (fragmentID.flatMap { HTMLElementRules.isPlainIdentifier($0) ? ["#\($0)"] : nil } ?? [])
        let declared = element.declaredLanguage.flatMap { $0.isEmpty ? nil : Language(code: $0) }
        let language = declared ?? currentLanguage
        let languageSource = declared != nil ? LanguageSource.declared : currentLanguageSource

        switch name {
        case "br":
            appendLineBreak()
            return
        case "img":
            flush()
            documentText += element.textContent
            emitImage(src: element.attribute("src"), alt: element.attribute("alt"), selector: ownSelector, selectors: selectors)
            return
        case "image" where element.namespaceURI == XMLNamespace.svg:
            flush()
            documentText += element.textContent
            let source = element.attribute("href", namespace: XMLNamespace.xlink) ?? element.attribute("href")
            emitImage(src: source, alt: nil, selector: ownSelector, selectors: selectors)
            return
        case "audio", "video":
            flush()
            documentText += element.textContent
            let sources = ([element.attribute("src").map { ($0, nil) }] + element.children("source").map { source in
                source.attribute("src").map { ($0, source.attribute("type")) }
            }).compactMap { $0 }.compactMap { link(for: $0.0, declaredType: $0.1) }
            let draftSelectors = matchingSelectors(adding: selectors)
            drafts.append(HTMLContentDraft(kind: name == "audio" ? .audio(sources) : .video(sources), selector: ownSelector, element: nil, matchingSelectors: draftSelectors))
            return
        case "math":
            // The formula is read by its `alttext`, which stands for the formula's own text on the page.
            let start = documentLength
            documentText += element.textContent
            if let alt = element.attribute("alttext") {
                append(HTMLTextRun.standing(for: start..<documentLength, text: " " + alt + " ", after: lastReadCharacter), language: language, source: languageSource)
            }
            return
        default:
            break
        }

        // A page marker with a number to read is an element of its own (skippable by role); an empty
        // one (`<span epub:type="pagebreak" id="p5"/>`) only lends its selector to the text around it.
        // SVG `text` is one too: its selector keeps a quote search away from the drawing's `style`.
        let isBlock = HTMLElementRules.blocks.contains(name)
            || name == "text" && element.namespaceURI == XMLNamespace.svg || isSVGDescription
            || HTMLElementRules.isPageBreak(element) && !element.normalizedText.isEmpty
        if isBlock { flush() } else { pendingSelectors.formUnion(selectors) }
        var caption = stack.last?.figureCaption
        if name == "figure" { caption = element.firstChild("figcaption")?.normalizedText }
        let serial = elementSources.count
        elementSources.append(documentLength..<documentLength)
        let alphabet = element.attribute("alphabet", namespace: XMLNamespace.ssml) ?? stack.last?.alphabet
        let phonemes = element.attribute("ph", namespace: XMLNamespace.ssml)
        let isNoteRef = !isBlock && HTMLElementRules.isNoteRef(element)
        stack.append(Frame(isBlock: isBlock, ownSelector: ownSelector, selectors: selectors, role: HTMLElementRules.role(of: element),
                           language: language, languageSource: languageSource, figureCaption: caption, alphabet: alphabet, serial: serial,
                           element: element, path: path, wrapsRows: impliesTableBodies && name == "table",
                           // Counting the block's characters costs its length: only where an `ssml:ph` or a note reference needs it.
                           phonemes: phonemes, phonemeStart: phonemes == nil ? 0 : textLength,
                           isNoteRef: isNoteRef, runStart: isNoteRef ? textLength : 0))
    }

    /// Closes the innermost open element, its children read.
    private func leave() {
        let frame = stack[stack.count - 1]
        if let phonemes = frame.phonemes {
            markPhonemes(phonemes, alphabet: frame.alphabet ?? defaultAlphabet, from: frame.phonemeStart, selector: frame.ownSelector)
        }
        if frame.isBlock { flush() }
        elementSources[frame.serial] = elementSources[frame.serial].lowerBound..<documentLength
        stack.removeLast()
        if frame.isNoteRef, textLength > frame.runStart { inlineRuns.append(.init(role: .noteRef, range: frame.runStart..<textLength)) }
    }

    private var currentLanguage: Language? { stack.last?.language ?? defaultLanguage }
    private var currentLanguageSource: LanguageSource { stack.last?.languageSource ?? defaultLanguageSource }

    /// The characters read so far in the block.
    private var textLength: Int { runs.reduce(0) { $0 + $1.text.count } }

    /// The last character of reading text in the block, nil at its start.
    private var lastReadCharacter: Character? { runs.last?.text.last }

    /// Adds reading text to the block: to the run before it when in the same language (or only a space).
    private func append(_ run: HTMLTextRun, language: Language?, source: LanguageSource) {
        guard !run.text.isEmpty else { return }
        if let last = runs.last, last.language == language || run.text.allSatisfy({ $0 == " " }) {
            runs[runs.count - 1].append(run)
        } else {
            var run = run
            run.language = language
            run.languageSource = source
            // Runs of one block follow each other in the page's text with nothing left between them.
            if let last = runs.last { run.extendStart(to: last.quoteEnd) }
            runs.append(run)
        }
    }

    /// A `<br>`: a line break that survives white-space collapsing (it has no text on the page).
    private func appendLineBreak() {
        guard !runs.isEmpty else { return }
        runs[runs.count - 1].replaceTrailingSpaces(with: "\n", at: documentLength)
    }

    /// Records that the block's text from character `start` to here is spoken as `phonemes` (an `ssml:ph`), in
    /// the IPA; a warning naming the element and the text spoken as written when the alphabet is not known.
    private func markPhonemes(_ phonemes: String, alphabet name: String, from start: Int, selector: String) {
        guard textLength > start else { return }
        guard let alphabet = PhoneticAlphabet(name: name), let ipa = alphabet.ipa(phonemes) else {
            let problem = PhoneticAlphabet(name: name) == nil
                ? "ssml:alphabet \"\(name)\" is not one raudio knows (only ipa and x-sampa)"
                : "ssml:ph \"\(phonemes)\" is not \(name)"
            warnings.append(ParsingWarning(source: href, path: selector, message: "\(problem); its text is spoken as written", kind: .pronunciation))
            return
        }
        phonemeMarks.append((start..<textLength, ipa))
    }

    /// Emits the text read so far as an element of the innermost open block, if it has any.
    func flush() {
        defer {
            runs = []
            inlineRuns = []
            phonemeMarks = []
        }
        var cleaned: [HTMLTextRun] = []
        // Characters dropped before the first one kept: inline runs move back by as many.
        var dropped = 0
        for run in runs {
            let isBlank = run.text.allSatisfy(\.isWhitespace)
            if isBlank, !cleaned.isEmpty {
                cleaned[cleaned.count - 1].append(run)
            } else if !isBlank {
                cleaned.append(run)
            } else {
                dropped += run.text.count
            }
        }
        guard !cleaned.isEmpty else { return }
        dropped += cleaned[0].trimLeadingWhitespace()
        cleaned[cleaned.count - 1].trimTrailingWhitespace()
        // The innermost role, unless the text is inside a note or an aside: then that (its heading is part of it).
        let roles = stack.reversed().lazy.compactMap(\.role)
        let role = roles.first(where: \.isBesideTheFlow) ?? roles.first ?? .body
        let block = stack.last(where: \.isBlock) ?? stack.last
        let located = Self.split(inlineRuns.map { .init(role: $0.role, range: ($0.range.lowerBound - dropped)..<($0.range.upperBound - dropped)) },
                                 over: cleaned.map(\.text.count))
        for index in cleaned.indices { cleaned[index].inlineRuns = located[index] }
        // Each `ssml:ph` in the run that holds all its text (one split by a change of language is left out: its
        // phonemes are for its whole text), then the lexicons on the rest.
        var runStart = 0
        for index in cleaned.indices {
            let length = cleaned[index].text.count
            defer { runStart += length }
            cleaned[index].phonemes = phonemeMarks.compactMap { mark in
                let lower = mark.range.lowerBound - dropped - runStart, upper = mark.range.upperBound - dropped - runStart
                guard lower >= 0, upper <= length, lower < upper else { return nil }
                return cleaned[index].phonemeSpan(characters: lower..<upper, phonemes: mark.phonemes)
            }
            cleaned[index].applyLexicons(lexicons)
        }
        drafts.append(HTMLContentDraft(kind: .text(cleaned, role), selector: block?.ownSelector ?? "html", element: block?.serial,
                                       matchingSelectors: matchingSelectors(adding: [])))
    }

    /// `runs` (in characters of the joined segments) cut at the segments' ends, each part counted in
    /// its own segment's characters.
    static func split(_ runs: [TextContentElement.InlineRun], over lengths: [Int]) -> [[TextContentElement.InlineRun]] {
        var start = 0
        return lengths.map { length in
            defer { start += length }
            return runs.compactMap { run in
                let lower = max(run.range.lowerBound, start)
                let upper = min(run.range.upperBound, start + length)
                return lower < upper ? .init(role: run.role, range: (lower - start)..<(upper - start)) : nil
            }
        }
    }

    private func emitImage(src: String?, alt: String?, selector: String, selectors: [String]) {
        guard let src, let link = link(for: src) else { return }
        let caption = stack.last?.figureCaption
        drafts.append(HTMLContentDraft(kind: .image(link, alt: alt, caption: caption), selector: selector, element: nil,
                                       matchingSelectors: matchingSelectors(adding: selectors)))
    }

    /// The selectors of the open elements, of `extra` and of the inline elements seen since the last draft.
    private func matchingSelectors(adding extra: [String]) -> Set<String> {
        var result = pendingSelectors
        pendingSelectors = []
        result.formUnion(extra)
        for frame in stack { result.formUnion(frame.selectors) }
        return result
    }

    /// The link of a `src`, resolved against the document; its type the one the element declares (a `source`'s
    /// `type`, parameters such as `codecs` left out), else the one its file extension says. Nil for an invalid
    /// href, and for a URL in a publication's document (its container reads its own files); in a web page read
    /// from its URL, a `src` is a URL resolved against the page's, so that a picture's alt text is still read.
    private func link(for source: String, declaredType: String? = nil) -> Link? {
        let path: String
        if let resolved = try? Href(source, relativeTo: href) {
            path = resolved.path
        } else if Href.isRemote(href), let url = URL(string: source, relativeTo: URL(string: href))?.absoluteURL, Href.isRemote(url.absoluteString) {
            path = url.absoluteString
        } else {
            return nil
        }
        let fileExtension = path.split(separator: "/").last?.split(separator: ".").last.map(String.init) ?? ""
        let declared = declaredType.flatMap { MediaType($0.split(separator: ";").first.map(String.init) ?? $0) }
        return Link(href: path, type: (declared ?? MediaType.forFileExtension(fileExtension))?.string)
    }
}
