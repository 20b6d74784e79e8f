import ReadiumShared

/// The depth-first walk of `HTMLContentExtractor`: keeps the open elements and the text of the block
/// being read, and emits a draft at each block boundary.
final class HTMLContentWalker {
    private struct Frame {
        var isBlock: Bool
        var ownSelector: String
        var selectors: [String]
        var role: ContentRole?
        var language: Language?
        var figureCaption: String?
    }

    private let href: String
    private let defaultLanguage: Language?
    private var stack: [Frame] = []
    private var segments: [(text: String, language: Language?)] = []
    /// Inline runs of the block being read (note references), in characters of its joined `segments`.
    private var runs: [TextContentElement.InlineRun] = []
    private var pendingSelectors: Set<String> = []
    private(set) var drafts: [HTMLContentDraft] = []

    init(href: String, defaultLanguage: Language?) {
        self.href = href
        self.defaultLanguage = defaultLanguage
    }

    /// Walks `element`, the `index`-th element child (from 1) of the element at `parentPath`.
    func walk(_ element: XMLElement, parentPath: String, index: Int) {
        guard !HTMLElementRules.isSkipped(element) else { return }
        let name = element.localName
        let path: String
        if parentPath.isEmpty {
            path = name
        } else if stack.count == 1, name == "body" || name == "head" {
            path = "\(parentPath) > \(name)"
        } else {
            path = "\(parentPath) > \(name):nth-child(\(index))"
        }
        let id = element.attribute("id") ?? element.attribute("id", namespace: XMLNamespace.xml)
        let idSelector = id.flatMap { HTMLElementRules.isPlainIdentifier($0) ? "#\($0)" : nil }
        let ownSelector = idSelector ?? path
        let selectors = [path] + (idSelector.map { [$0] } ?? [])
        let language = element.declaredLanguage.flatMap { $0.isEmpty ? nil : Language(code: $0) } ?? currentLanguage

        switch name {
        case "br":
            appendLineBreak()
            return
        case "img":
            flush()
            emitImage(src: element.attribute("src"), alt: element.attribute("alt"), selector: ownSelector, selectors: selectors)
            return
        case "image" where element.namespaceURI == XMLNamespace.svg:
            flush()
            let source = element.attribute("href", namespace: XMLNamespace.xlink) ?? element.attribute("href")
            emitImage(src: source, alt: nil, selector: ownSelector, selectors: selectors)
            return
        case "audio", "video":
            flush()
            let sources = ([element.attribute("src")] + element.children("source").map { $0.attribute("src") })
                .compactMap { $0 }.compactMap(link(for:))
            let draftSelectors = matchingSelectors(adding: selectors)
            drafts.append(HTMLContentDraft(kind: name == "audio" ? .audio(sources) : .video(sources), selector: ownSelector, matchingSelectors: draftSelectors))
            return
        case "math":
            if let alt = element.attribute("alttext") { appendText(" " + alt + " ", language: language) }
            return
        default:
            break
        }

        // A page marker with a number to read is an element of its own (skippable by role); an empty
        // one (`<span epub:type="pagebreak" id="p5"/>`) only lends its selector to the text around it.
        let isBlock = HTMLElementRules.blocks.contains(name)
            || HTMLElementRules.isPageBreak(element) && !element.normalizedText.isEmpty
        if isBlock { flush() } else { pendingSelectors.formUnion(selectors) }
        var caption = stack.last?.figureCaption
        if name == "figure" { caption = element.firstChild("figcaption")?.normalizedText }
        stack.append(Frame(isBlock: isBlock, ownSelector: ownSelector, selectors: selectors, role: HTMLElementRules.role(of: element), language: language, figureCaption: caption))
        let isNoteRef = !isBlock && HTMLElementRules.isNoteRef(element)
        let runStart = isNoteRef ? textLength : 0
        defer {
            if isNoteRef, textLength > runStart { runs.append(.init(role: .noteRef, range: runStart..<textLength)) }
        }
        var elementIndex = 0
        for child in element.children {
            switch child {
            case .element(let childElement):
                elementIndex += 1
                walk(childElement, parentPath: path, index: elementIndex)
            case .text(let text), .cdata(let text):
                appendText(text, language: language)
            }
        }
        if isBlock { flush() }
        stack.removeLast()
    }

    private var currentLanguage: Language? { stack.last?.language ?? defaultLanguage }

    /// The characters read so far in the block.
    private var textLength: Int { segments.reduce(0) { $0 + $1.text.count } }

    /// Appends text with runs of HTML white space collapsed to one space, as a browser renders it.
    private func appendText(_ raw: String, language: Language?) {
        var lastWasSpace = segments.last.map { $0.text.last == " " || $0.text.last == "\n" } ?? true
        var collapsed = ""
        for character in raw {
            if character.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }) {
                if !lastWasSpace { collapsed.append(" ") }
                lastWasSpace = true
            } else {
                collapsed.append(character)
                lastWasSpace = false
            }
        }
        guard !collapsed.isEmpty else { return }
        if let last = segments.last, last.language == language || collapsed.allSatisfy({ $0 == " " }) {
            segments[segments.count - 1].text += collapsed
        } else {
            segments.append((collapsed, language))
        }
    }

    /// A `<br>`: a line break that survives white-space collapsing.
    private func appendLineBreak() {
        guard !segments.isEmpty else { return }
        while segments[segments.count - 1].text.last == " " { segments[segments.count - 1].text.removeLast() }
        segments[segments.count - 1].text.append("\n")
    }

    /// Emits the text read so far as an element of the innermost open block, if it has any.
    func flush() {
        defer {
            segments = []
            runs = []
        }
        var cleaned: [(text: String, language: Language?)] = []
        // Characters dropped before the first one kept: inline runs move back by as many.
        var dropped = 0
        for segment in segments {
            if segment.text.allSatisfy(\.isWhitespace), !cleaned.isEmpty {
                cleaned[cleaned.count - 1].text += segment.text
            } else if !segment.text.allSatisfy(\.isWhitespace) {
                cleaned.append(segment)
            } else {
                dropped += segment.text.count
            }
        }
        guard !cleaned.isEmpty else { return }
        while let first = cleaned[0].text.first, first.isWhitespace {
            cleaned[0].text.removeFirst()
            dropped += 1
        }
        while let last = cleaned[cleaned.count - 1].text.last, last.isWhitespace { cleaned[cleaned.count - 1].text.removeLast() }
        let role = stack.reversed().lazy.compactMap(\.role).first ?? .body
        let selector = stack.last(where: \.isBlock)?.ownSelector ?? stack.last?.ownSelector ?? "html"
        let located = Self.split(runs.map { .init(role: $0.role, range: ($0.range.lowerBound - dropped)..<($0.range.upperBound - dropped)) },
                                 over: cleaned.map(\.text.count))
        let withRuns = zip(cleaned, located).map { (text: $0.0.text, language: $0.0.language, runs: $0.1) }
        drafts.append(HTMLContentDraft(kind: .text(withRuns, role), selector: selector, matchingSelectors: matchingSelectors(adding: [])))
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
        drafts.append(HTMLContentDraft(kind: .image(link, alt: alt, caption: caption), selector: selector, matchingSelectors: matchingSelectors(adding: selectors)))
    }

    /// The selectors of the open elements, of `extra` and of the inline elements seen since the last draft.
    private func matchingSelectors(adding extra: [String]) -> Set<String> {
        var result = pendingSelectors
        pendingSelectors = []
        result.formUnion(extra)
        for frame in stack { result.formUnion(frame.selectors) }
        return result
    }

    /// A link to `source` resolved against the document; nil for remote or invalid hrefs.
    private func link(for source: String) -> Link? {
        guard let resolved = try? Href(source, relativeTo: href) else { return nil }
        let fileExtension = resolved.path.split(separator: ".").last.map(String.init) ?? ""
        return Link(href: resolved.path, type: MediaType.forFileExtension(fileExtension)?.string)
    }
}
