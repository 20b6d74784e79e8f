// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Detects DRM from `META-INF/encryption.xml` and the presence of an LCP license.
///
/// Font obfuscation (IDPF `http://www.idpf.org/2008/embedding`, Adobe `http://ns.adobe.com/pdf/enc#RC`)
/// is not DRM: such publications read normally. LCP is recognised by its algorithm
/// (`http://readium.org/2014/01/lcp` in `ds:KeyInfo/ds:RetrievalMethod`) or `META-INF/license.lcpl`;
/// any other encrypted resource makes the protection `.unknown`.
enum EPUBEncryptionParser {
    static let obfuscationAlgorithms: Set<String> = ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]
    static let lcpScheme = "http://readium.org/2014/01/lcp"

    /// The protection of the publication, nil when none (or only obfuscated fonts).
    static func protection(encryption: XMLDocument?, hasLCPLicense: Bool) -> Publication.Protection? {
        if hasLCPLicense { return .lcp }
        guard let encryption else { return nil }
        var protection: Publication.Protection?
        for data in encryption.root.descendants("EncryptedData") {
            let retrieval = data.firstDescendant("RetrievalMethod")?.attribute("URI")
            if retrieval == lcpScheme || data.firstDescendant("KeyInfo")?.textContent.contains(lcpScheme) == true {
                return .lcp
            }
            let algorithm = data.firstChild("EncryptionMethod")?.attribute("Algorithm") ?? ""
            if !obfuscationAlgorithms.contains(algorithm) { protection = .unknown }
        }
        return protection
    }
}
