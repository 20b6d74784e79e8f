// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A protected package's container whose LCP-encrypted resources read in clear (`LCPDecryptor`); every other
/// resource reads as it is. `http://readium.org/<entry>` hrefs of old Readium packages name `<entry>`.
public struct LCPDecryptingContainer: Container {
    public let base: any Container
    public let encryption: LCPEncryptionMap
    let decryptor: LCPContentDecryptor
    private let entrySet: Set<String>

    public init(base: any Container, encryption: LCPEncryptionMap, decryptor: LCPContentDecryptor) {
        self.base = base
        self.encryption = encryption
        self.decryptor = decryptor
        self.entrySet = Set(base.entries)
    }

    public var sourceURL: URL { base.sourceURL }
    public var entries: [String] { base.entries }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        var path = href
        if Href.isRemote(href), let entry = LCPEncryptionMap.resolve(href, manifestHref: "", entries: entrySet) {
            path = entry
        }
        let resource = try base.resource(at: path)
        guard let resourceEncryption = encryption[path] else { return resource }
        guard resourceEncryption.algorithm == LCPResourceEncryption.aes256CBC else {
            throw ResourceError(
                .badData, href: href, message: "is encrypted with \(resourceEncryption.algorithm), which LCP does not use")
        }
        return LCPDecryptor(base: resource, encryption: resourceEncryption, decryptor: decryptor)
    }

    public func close() { base.close() }
}
