// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Which resources of a protected package are encrypted with LCP, by container href.
///
/// An EPUB says it in `META-INF/encryption.xml` (`CipherReference/@URI`, relative to the container's root, with
/// `Compression/@Method` and `@OriginalLength`); a Readium package in each link's `properties.encrypted`
/// (`scheme`, `algorithm`, `compression`, `originalLength`) of `manifest.json`.
public struct LCPEncryptionMap: Sendable, Equatable {
    public var resources: [String: LCPResourceEncryption]

    public init(resources: [String: LCPResourceEncryption] = [:]) {
        self.resources = resources
    }

    public subscript(href: String) -> LCPResourceEncryption? {
        let key = (try? Href(href).path) ?? href
        return resources[key]
    }

    static let lcpScheme = "http://readium.org/2014/01/lcp"

    /// Reads `META-INF/encryption.xml` of an EPUB; an XML error names the file.
    static func epub(encryptionXML data: Data, source: String) throws(LCPError) -> LCPEncryptionMap {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, href: "META-INF/encryption.xml")
        } catch {
            throw .parsing(.encryption("\(source): META-INF/encryption.xml: \(error.message)"))
        }
        var map = LCPEncryptionMap()
        for encrypted in document.root.descendants("EncryptedData") {
            let retrieval = encrypted.firstDescendant("RetrievalMethod")?.attribute("URI") ?? ""
            let retrievalType = encrypted.firstDescendant("RetrievalMethod")?.attribute("Type") ?? ""
            // Obfuscated fonts and other schemes are not LCP's to decrypt.
            guard retrievalType.hasPrefix(lcpScheme) || retrieval.hasPrefix("license.lcpl#") else { continue }
            guard let uri = encrypted.firstDescendant("CipherReference")?.attribute("URI"),
                let path = try? Href(uri).path
            else { continue }
            let algorithm = encrypted.firstChild("EncryptionMethod")?.attribute("Algorithm")
                ?? LCPResourceEncryption.aes256CBC
            let compression = encrypted.firstDescendant("Compression")
            map.resources[path] = LCPResourceEncryption(
                algorithm: algorithm, isCompressed: LCPResourceEncryption.isDeflate(compression?.attribute("Method")),
                originalLength: compression?.attribute("OriginalLength").flatMap { UInt64($0) })
        }
        return map
    }

    /// Reads the `properties.encrypted` of every link of a Readium manifest at `manifestHref`.
    ///
    /// Hrefs are resolved against the manifest as the parser does; an absolute `http://readium.org/...` href
    /// (how EDRLab's packager wrote the audiotest package) names the entry at its path.
    static func readium(manifest data: Data, manifestHref: String, entries: Set<String>) -> LCPEncryptionMap {
        var map = LCPEncryptionMap()
        guard let object = try? JSONParser.parse(data).objectValue else { return map }
        func visit(_ value: JSONValue?) {
            guard let links = value?.arrayValue else { return }
            for link in links.compactMap(\.objectValue) {
                if let href = link["href"]?.stringValue,
                    let encrypted = link["properties"]?.objectValue?["encrypted"]?.objectValue,
                    encrypted["scheme"]?.stringValue == lcpScheme,
                    let path = resolve(href, manifestHref: manifestHref, entries: entries)
                {
                    map.resources[path] = LCPResourceEncryption(
                        algorithm: encrypted["algorithm"]?.stringValue ?? LCPResourceEncryption.aes256CBC,
                        isCompressed: LCPResourceEncryption.isDeflate(encrypted["compression"]?.stringValue),
                        originalLength: encrypted["originalLength"]?.intValue.flatMap { UInt64(exactly: $0) })
                }
                visit(link["alternate"])
                visit(link["children"])
            }
        }
        for key in ["readingOrder", "resources", "toc", "links"] { visit(object[key]) }
        return map
    }

    /// The container path of a manifest href, or nil when it names nothing in the package.
    static func resolve(_ href: String, manifestHref: String, entries: Set<String>) -> String? {
        if Href.isRemote(href) {
            guard let url = URL(string: href), url.host?.lowercased() == "readium.org" else { return nil }
            let path = String(url.path.drop { $0 == "/" })
            return entries.contains(path) ? path : nil
        }
        return try? Href(href, relativeTo: manifestHref).path
    }
}
