// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Parses a SMIL 3 media overlay document into `MediaOverlayPar`s (depth-first, in document order).
///
/// Lenient where authors err, each time with a warning naming the SMIL href and the element: a `seq`
/// with direct `text`/`audio` children (ignored), a `par` holding a `seq` (the nested `seq` is
/// ignored), several `text` in a `par` (the first wins), an `audio` `src` with a fragment (dropped),
/// an invalid clock value (treated as absent), `clipBegin` at or after `clipEnd` (the clip is
/// dropped; the `par` falls back to text-to-speech). Only unreadable XML or a root that is not
/// `smil` fails. Pure: no I/O.
public struct SMILParser {
    /// The href of the SMIL file, relative to the publication root (the base of its `src`s).
    public let href: String
    private(set) var warnings: [ParsingWarning] = []
    private var pars: [MediaOverlayPar] = []
    private var seqCount = 0

    public init(href: String) {
        self.href = href
    }

    /// The `par`s of the SMIL document in `data`, and what was worked around.
    public static func parse(_ data: Data, href: String) throws(MediaOverlayError) -> (pars: [MediaOverlayPar], warnings: [ParsingWarning]) {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, href: href, mode: .strict)
        } catch {
            throw MediaOverlayError(.smilMalformed, href: href, message: "is not well-formed XML (\(error.description))")
        }
        var parser = SMILParser(href: href)
        try parser.read(document.root)
        return (parser.pars, document.warnings + parser.warnings)
    }

    mutating func read(_ root: XMLElement) throws(MediaOverlayError) {
        guard root.localName == "smil" else {
            throw MediaOverlayError(.smilMalformed, href: href, message: "the root element is <\(root.qualifiedName)>, not <smil>")
        }
        if root.namespaceURI != XMLNamespace.smil {
            warn(root, "the <smil> root is not in the SMIL namespace \(XMLNamespace.smil); read anyway")
        }
        guard let body = root.childElements.first(where: { $0.localName == "body" }) else {
            warn(root, "has no <body>: no narration")
            return
        }
        readChildren(of: body, ancestors: [])
    }

    private mutating func readChildren(of element: XMLElement, ancestors: [MediaOverlaySeq]) {
        for child in element.childElements {
            switch child.localName {
            case "seq":
                let seq = MediaOverlaySeq(index: seqCount, id: child.attribute("id"), types: types(of: child),
                                          textHref: child.attribute("textref", namespace: XMLNamespace.ops).flatMap { resolve($0, in: child) })
                seqCount += 1
                readChildren(of: child, ancestors: ancestors + [seq])
            case "par":
                readPar(child, ancestors: ancestors)
            case "text", "audio":
                warn(child, "a <\(child.localName)> must be inside a <par>, not directly in <\(element.localName)>; ignored")
            default:
                break
            }
        }
    }

    private mutating func readPar(_ par: XMLElement, ancestors: [MediaOverlaySeq]) {
        let texts = par.childElements.filter { $0.localName == "text" }
        let audios = par.childElements.filter { $0.localName == "audio" }
        if texts.count > 1 { warn(par, "has \(texts.count) <text> elements; only the first is used") }
        if audios.count > 1 { warn(par, "has \(audios.count) <audio> elements; only the first is used") }
        if par.childElements.contains(where: { $0.localName == "seq" || $0.localName == "par" }) {
            warn(par, "holds a <seq> or <par>, which SMIL does not allow in a <par>; ignored")
        }
        var textHref: String?
        if let text = texts.first {
            if let src = text.attribute("src"), !src.isEmpty {
                textHref = resolve(src, in: text)
            } else {
                warn(text, "<text> has no src")
            }
        }
        var clip: MediaOverlayClip?
        if let audio = audios.first { clip = readClip(audio) }
        pars.append(MediaOverlayPar(id: par.attribute("id"), textHref: textHref, audio: clip, types: types(of: par), ancestors: ancestors))
    }

    private mutating func readClip(_ audio: XMLElement) -> MediaOverlayClip? {
        guard var src = audio.attribute("src"), !src.isEmpty else {
            warn(audio, "<audio> has no src; the text is read with text-to-speech")
            return nil
        }
        if let hash = src.firstIndex(of: "#") {
            warn(audio, "<audio src=\"\(src)\"> has a fragment, which media overlays do not allow; it is ignored")
            src = String(src[..<hash])
        }
        guard let resolved = resolve(src, in: audio) else { return nil }
        let begin = clockValue(audio, "clipBegin") ?? 0
        let end = clockValue(audio, "clipEnd")
        if let end, end <= begin {
            warn(audio, "clipEnd (\(end) s) is not after clipBegin (\(begin) s): the clip is empty; the text is read with text-to-speech")
            return nil
        }
        return MediaOverlayClip(href: resolved, begin: begin, end: end)
    }

    private mutating func clockValue(_ audio: XMLElement, _ name: String) -> Double? {
        guard let text = audio.attribute(name) else { return nil }
        guard let seconds = SMILClockValue.seconds(text) else {
            warn(audio, "\(name)=\"\(text)\" is not a SMIL clock value; ignored")
            return nil
        }
        return seconds
    }

    private func types(of element: XMLElement) -> [String] {
        (element.attribute("type", namespace: XMLNamespace.ops) ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// `src` resolved against the SMIL file's folder, as an href relative to the publication root.
    private mutating func resolve(_ src: String, in element: XMLElement) -> String? {
        do {
            return try Href(src, relativeTo: href).string
        } catch {
            warn(element, "src \"\(src)\" cannot be used: \(error.message)")
            return nil
        }
    }

    private mutating func warn(_ element: XMLElement, _ message: String) {
        let id = element.attribute("id").map { "[@id='\($0)']" } ?? ""
        warnings.append(ParsingWarning(source: href, path: "line \(element.line): \(element.localName)\(id)", message: message))
    }
}
