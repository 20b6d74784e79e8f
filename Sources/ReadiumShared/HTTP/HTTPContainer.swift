// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The resources of a remote publication: hrefs relative to the manifest's folder on a web server, and
/// absolute `http(s)://` URLs.
///
/// Relative hrefs go through `Href`, so one that leaves the manifest's folder (`../`) is refused with
/// `.forbidden` as in a local folder; other URL schemes (`file:`, `data:`) are refused too, so a remote
/// manifest can never make raudio read a local file. There is no listing: `entries` is empty.
public struct HTTPContainer: Container {
    /// The manifest's URL (after redirects).
    public let sourceURL: URL
    public var entries: [String] { [] }
    public let access: RemoteAccess
    /// The manifest's folder, ending with `/`.
    private let rootURL: URL

    public init(manifestURL: URL, access: RemoteAccess) {
        sourceURL = manifestURL
        self.access = access
        rootURL = manifestURL.deletingLastPathComponent()
    }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        if Href.isRemote(href) {
            return access.resource(url: href)
        }
        let normalized = try Href(href)
        guard !normalized.path.isEmpty else {
            throw ResourceError(.notFound, href: href, message: "is the manifest's folder, not a file")
        }
        let relative = Href.percentEncodedPath(normalized.path) + (normalized.query.map { "?" + $0 } ?? "")
        guard let url = URL(string: relative, relativeTo: rootURL)?.absoluteString else {
            throw ResourceError(.badData, href: href, message: "does not make a valid URL with \(rootURL.absoluteString)")
        }
        return access.resource(url: url)
    }
}

/// A local container (folder, ZIP) whose manifest also names absolute `http(s)://` URLs: those are
/// fetched over HTTP, everything else is read from the container.
public struct RemoteLinkContainer: Container {
    public let local: any Container
    public let access: RemoteAccess

    public init(local: any Container, access: RemoteAccess) {
        self.local = local
        self.access = access
    }

    public var sourceURL: URL { local.sourceURL }
    public var entries: [String] { local.entries }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        guard Href.isRemote(href) else { return try local.resource(at: href) }
        return access.resource(url: href)
    }

    public func close() {
        local.close()
    }
}
