// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A protected package's container while its licence is locked (no passphrase, or a licence refused): what is in
/// clear (the manifest, the package document, a cover left unencrypted) reads as it is, and every resource the
/// package says is LCP-encrypted refuses to be read (`.forbidden`), as Readium's locked publications do, so that
/// nothing ever hands its encrypted bytes out as if they were the resource (`raudio info --cover` of a locked book).
public struct LCPLockedContainer: Container {
    public let base: any Container
    public let encryption: LCPEncryptionMap
    private let entrySet: Set<String>

    public init(base: any Container, encryption: LCPEncryptionMap) {
        self.base = base
        self.encryption = encryption
        self.entrySet = Set(base.entries)
    }

    public var sourceURL: URL { base.sourceURL }
    public var entries: [String] { base.entries }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        var path = href
        if Href.isRemote(href), let entry = LCPEncryptionMap.resolve(href, manifestHref: "", entries: entrySet) {
            path = entry
        }
        guard encryption[path] == nil else {
            throw ResourceError(
                .forbidden, href: href,
                message: "is encrypted with LCP and the licence is locked: it can be read only with the licence's passphrase")
        }
        return try base.resource(at: path)
    }

    public func close() { base.close() }
}
