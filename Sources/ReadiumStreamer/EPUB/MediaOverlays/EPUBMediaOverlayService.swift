// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The media overlays of an EPUB: parses each SMIL file the first time one of its content documents
/// is asked for, then keeps it.
///
/// Attached by `EPUBParser` (see `attach(to:)`) when a reading-order link has
/// `properties["mediaOverlay"]`. One SMIL file may narrate several content documents (as in fixed
/// layout books): each document gets the `par`s whose text points into it. Safe to share between
/// threads; parsing happens on the caller's thread, under a lock per service.
public final class EPUBMediaOverlayService: MediaOverlayService {
    let readingOrder: [Link]
    let container: any Container
    let log = WarningLog()
    private let parsed = Locked<[String: Result<[MediaOverlayPar], MediaOverlayError>]>([:])

    private let documentTexts = Locked<[String: XHTMLFragmentTexts?]>([:])

    public init(publication: Publication) {
        readingOrder = publication.readingOrder
        container = publication.container
    }

    /// A copy of `publication` with a media overlay service attached when any reading-order item has
    /// an overlay; `publication` itself otherwise.
    public static func attach(to publication: Publication) -> Publication {
        guard publication.readingOrder.contains(where: { $0.mediaOverlayHref != nil }) else { return publication }
        return publication.adding(extension: EPUBMediaOverlayService(publication: publication), forKey: MediaOverlayServiceKey.key)
    }

    public var warnings: [ParsingWarning] { log.warnings }

    public func hasMediaOverlay(at index: Int) -> Bool {
        readingOrder.indices.contains(index) && readingOrder[index].mediaOverlayHref != nil
    }

    public func mediaOverlay(at index: Int) throws(MediaOverlayError) -> MediaOverlay? {
        guard readingOrder.indices.contains(index), let smilHref = readingOrder[index].mediaOverlayHref else { return nil }
        let document = readingOrder[index].hrefWithoutFragment
        let all = try pars(ofSMIL: smilHref)
        let documentPath = (try? Href(document).path) ?? document
        let users = readingOrder.filter { $0.mediaOverlayHref == smilHref }.count
        let own = all.filter { par in
            guard let path = par.textPath else { return users == 1 }
            return ((try? Href(path).path) ?? path) == documentPath
        }
        return MediaOverlay(smilHref: smilHref, documentHref: document, pars: resolvingTexts(of: own, in: document, smilHref: smilHref))
    }

    /// Every `par` of the SMIL file at `smilHref`, parsed once.
    func pars(ofSMIL smilHref: String) throws(MediaOverlayError) -> [MediaOverlayPar] {
        let result = parsed.withLock { cache -> Result<[MediaOverlayPar], MediaOverlayError> in
            if let cached = cache[smilHref] { return cached }
            let result = Result { () throws(MediaOverlayError) -> [MediaOverlayPar] in try load(smilHref) }
            cache[smilHref] = result
            return result
        }
        return try result.get()
    }
}

extension EPUBMediaOverlayService {
    /// Reads and parses one SMIL file, logging its warnings.
    private func load(_ smilHref: String) throws(MediaOverlayError) -> [MediaOverlayPar] {
        let data: Data
        do {
            data = try container.resource(at: smilHref).read(maximumSize: XMLDocument.defaultMaximumSize)
        } catch {
            throw MediaOverlayError(.smilUnreadable, href: smilHref, message: "cannot be read: \(error.message)")
        }
        let (pars, warnings) = try SMILParser.parse(data, href: smilHref)
        for warning in warnings { log.append(warning) }
        return pars
    }
}

extension EPUBMediaOverlayService {
    /// `pars` with the text of their fragment read from the content document at `document`; a
    /// fragment that names no element is warned about (once per document).
    func resolvingTexts(of pars: [MediaOverlayPar], in document: String, smilHref: String) -> [MediaOverlayPar] {
        let texts = documentTexts.withLock { cache -> XHTMLFragmentTexts? in
            if let cached = cache[document] { return cached }
            let texts: XHTMLFragmentTexts?
            do {
                let data = try container.resource(at: document).read(maximumSize: XMLDocument.defaultMaximumSize)
                let parsed = try XMLDocument(data: data, href: document, mode: .recovering)
                texts = XHTMLFragmentTexts(document: parsed)
            } catch {
                log.append(ParsingWarning(source: document, path: "", message: "narrated by \(smilHref) but cannot be read (\(error)); its text locators have no text"))
                texts = nil
            }
            cache[document] = .some(texts)
            return texts
        }
        guard let texts else { return pars }
        return pars.map { par in
            var par = par
            if let fragment = par.textFragment {
                if let text = texts.text(ofElementWithID: fragment) {
                    par.text = text
                } else {
                    log.append(ParsingWarning(source: smilHref, path: par.id.map { "par[@id='\($0)']" } ?? "par", message: "text src \(par.textHref ?? "") names no element of \(document)"))
                }
            }
            return par
        }
    }
}

extension Link {
    /// The SMIL href of this reading-order item's media overlay (`properties["mediaOverlay"]`).
    public var mediaOverlayHref: String? {
        if case .string(let href)? = properties["mediaOverlay"] { return href }
        return nil
    }
}
