// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens an EPUB 2 or 3 publication from a `Container` (a ZIP archive or an unpacked folder).
///
/// Reads the OCF `META-INF/container.xml`, the package document (metadata, manifest, spine), the
/// navigation (EPUB 3 navigation document, else the EPUB 2 NCX) and `META-INF/encryption.xml`, and
/// returns a `Publication` whose manifest follows Readium's EPUB profile. Mistakes that leave the book
/// readable are warnings (`Publication.warnings`); see `parse(container:)` for what is an error.
///
/// Conventions of the manifest produced (what consumers of the model rely on):
/// - `readingOrder` is the spine, in order. A non-linear itemref (`linear="no"`) stays in the reading
///   order, marked `properties["linear"] = false`, so that links into it resolve; a reader that
///   follows the linear flow skips it. A spine item whose file is absent from the container stays,
///   marked `properties["missing"] = true` (with a warning). An idref repeated in the spine is kept
///   once (the first), with a warning.
/// - `resources` holds every other manifest item (style sheets, images, the NCX, SMIL files...);
///   unknown media types are kept as written.
/// - Media overlays: a manifest item's `media-overlay` becomes `properties["mediaOverlay"]`, the href
///   of its SMIL document (itself listed in `resources` or the reading order); a `media:duration`
///   refining an item becomes the `duration` of that item's link (SMIL link and, when known, the
///   content document's link); the total goes to `metadata.duration`; `media:active-class` and
///   `media:playback-active-class` go to `metadata.otherMetadata["mediaOverlay"]`.
/// - Item properties: `nav` gives the rel `contents`, `cover-image` (or the EPUB 2 cover meta) the rel
///   `cover`; `mathml`/`svg`/`scripted` (as `js`)/`remote-resources` go to
///   `properties["contains"]`; itemref
///   `page-spread-*` and `rendition:*` overrides go to `properties["page"]`, `["layout"]`,
///   `["orientation"]`, `["spread"]`, `["overflow"]`.
/// - Hrefs are resolved against the package document, percent-decoded, checked to stay in the
///   container, and written percent-encoded (`Href.string`).
public struct EPUBParser: Sendable {
    /// The OCF file that makes a container an EPUB.
    public static let containerPath = "META-INF/container.xml"
    public static let encryptionPath = "META-INF/encryption.xml"
    public static let lcpLicensePath = "META-INF/license.lcpl"

    /// Whether `parse` also checks that each XHTML document of the spine is well-formed XML and warns
    /// about those that are not (they will be read with `XMLDocument.Mode.recovering`). This reads
    /// and parses every spine document once; turn it off to open large books faster.
    public var checksContentDocuments: Bool
    /// What finds the language of content that declares none (else it is read in the publication's).
    public var languageIdentifier: (any LanguageIdentifier)?

    public init(checksContentDocuments: Bool = true, languageIdentifier: (any LanguageIdentifier)? = nil) {
        self.checksContentDocuments = checksContentDocuments
        self.languageIdentifier = languageIdentifier
    }

    /// Parses the EPUB in `container`. Synchronous; reads several resources, so call it off the
    /// cooperative pool for large books.
    ///
    /// - Throws: `EPUBError` `.notEPUB` when `META-INF/container.xml` is missing, `.invalidContainer`
    ///   when it names no package document, `.invalidPackage` when the package document is missing,
    ///   refused or not well-formed XML, `.noReadableContent` when no spine item exists in the container.
    public func parse(container: any Container) throws(EPUBError) -> Publication {
        let warnings = WarningLog()
        let name = container.sourceURL.lastPathComponent
        checkMimetype(container, warnings: warnings)
        let packagePath = try packageDocumentPath(container, name: name, warnings: warnings)
        let packageXML: XMLDocument
        do {
            let data = try container.resource(at: packagePath).read(maximumSize: XMLDocument.defaultMaximumSize)
            packageXML = try XMLDocument(data: data, href: packagePath)
        } catch let error as ResourceError {
            throw EPUBError(.invalidPackage, href: packagePath, message: "the package document named by \(Self.containerPath) cannot be read: \(error.message)")
        } catch let error as XMLError {
            throw EPUBError(.invalidPackage, href: packagePath, message: "the package document is not well-formed XML: \(error.description)")
        } catch {
            throw EPUBError(.invalidPackage, href: packagePath, message: "\(error)")
        }
        for warning in packageXML.warnings { warnings.append(warning) }
        let package = try EPUBPackageDocument(document: packageXML, warnings: warnings)
        let metadataParser = EPUBMetadataParser(package: package, warnings: warnings)
        var metadata = metadataParser.parse()
        let entries = Set(container.entries)
        var (readingOrder, resources) = links(package: package, metadataParser: metadataParser, entries: entries, warnings: warnings)
        guard readingOrder.contains(where: { $0.properties["missing"] == nil }) else {
            let detail = readingOrder.isEmpty ? "the spine lists no manifest item" : "none of the \(readingOrder.count) spine items exists in the container"
            throw EPUBError(.noReadableContent, href: packagePath, message: "nothing to read: \(detail)")
        }
        if metadata.duration == nil, readingOrder.allSatisfy({ $0.duration != nil }) {
            metadata.duration = readingOrder.compactMap(\.duration).reduce(0, +)
        }
        let navigation = self.navigation(package: package, container: container, entries: entries, warnings: warnings)
        if checksContentDocuments {
            checkContentDocuments(readingOrder, container: container, warnings: warnings)
        }
        markCover(package: package, metadataParser: metadataParser, readingOrder: &readingOrder, resources: &resources)
        let manifest = Manifest(
            metadata: metadata, readingOrder: readingOrder, resources: resources,
            tableOfContents: navigation.tableOfContents, pageList: navigation.pageList, landmarks: navigation.landmarks)
        let publication = Publication(
            manifest: manifest, container: container, mediaType: .epub,
            protection: protection(container, entries: entries, warnings: warnings), warnings: warnings.warnings)
        return EPUBMediaOverlayService.attach(to: EPUBContentService.attach(
            to: publication, languageIdentifier: languageIdentifier,
            // Where a document's text is too short to identify, the user's language (only where identification is on).
            userLanguage: languageIdentifier == nil ? nil : TextDocumentParser.userLanguage()))
    }

    private func checkMimetype(_ container: any Container, warnings: WarningLog) {
        guard let resource = try? container.resource(at: "mimetype") else {
            warnings.append(ParsingWarning(source: "mimetype", path: "", message: "missing; expected the file 'mimetype' containing application/epub+zip"))
            return
        }
        let content = (try? resource.read(maximumSize: 4096)).map { String(decoding: $0, as: UTF8.self) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if content != MediaType.epub.string {
            warnings.append(ParsingWarning(source: "mimetype", path: "", message: "contains '\(content.prefix(60))' instead of application/epub+zip"))
        }
    }

    /// The path of the package document named by the first `rootfile` of `container.xml`.
    private func packageDocumentPath(_ container: any Container, name: String, warnings: WarningLog) throws(EPUBError) -> String {
        let data: Data
        do {
            data = try container.resource(at: Self.containerPath).read(maximumSize: XMLDocument.defaultMaximumSize)
        } catch {
            if error.code == .notFound {
                throw EPUBError(.notEPUB, href: name, message: "not an EPUB: \(Self.containerPath) is missing")
            }
            throw EPUBError(.invalidContainer, href: Self.containerPath, message: "cannot be read: \(error.message)")
        }
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, href: Self.containerPath)
        } catch {
            throw EPUBError(.invalidContainer, href: Self.containerPath, message: "is not well-formed XML: \(error.description)")
        }
        let rootfiles = document.root.descendants("rootfile")
        let packageRootfile = rootfiles.first { $0.attribute("media-type") == MediaType.opf.string && $0.attribute("full-path") != nil }
            ?? rootfiles.first { $0.attribute("full-path") != nil }
        guard let fullPath = packageRootfile?.attribute("full-path"), !fullPath.isEmpty else {
            throw EPUBError(.invalidContainer, href: Self.containerPath, message: "names no package document (no <rootfile full-path>)")
        }
        if rootfiles.count > 1 {
            warnings.append(ParsingWarning(source: Self.containerPath, path: "rootfiles", message: "\(rootfiles.count) rootfiles; the first package document is used"))
        }
        do {
            return try Href(fullPath).path
        } catch {
            throw EPUBError(.invalidContainer, href: Self.containerPath, message: "rootfile '\(fullPath)' \(error.message)")
        }
    }

    private func protection(_ container: any Container, entries: Set<String>, warnings: WarningLog) -> Publication.Protection? {
        var encryption: XMLDocument?
        if entries.contains(Self.encryptionPath), let data = try? container.resource(at: Self.encryptionPath).read(maximumSize: XMLDocument.defaultMaximumSize) {
            do {
                encryption = try XMLDocument(data: data, href: Self.encryptionPath)
            } catch {
                warnings.append(ParsingWarning(source: Self.encryptionPath, path: "", message: "is not well-formed XML (\(error.description)); ignored"))
            }
        }
        return EPUBEncryptionParser.protection(encryption: encryption, hasLCPLicense: entries.contains(Self.lcpLicensePath))
    }

    private func checkContentDocuments(_ readingOrder: [Link], container: any Container, warnings: WarningLog) {
        for link in readingOrder where link.properties["missing"] == nil && (link.mediaType?.isHTML ?? false) {
            guard let data = try? container.resource(at: link.href).read(maximumSize: XMLDocument.defaultMaximumSize) else { continue }
            do {
                _ = try XMLDocument(data: data, href: link.href)
            } catch {
                warnings.append(ParsingWarning(
                    source: link.href, path: "",
                    message: "the content document is not well-formed XML (\(error.description)); it will be recovered as far as possible when read"))
            }
        }
    }
}
