// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A container holding exactly one file, local or remote: a lone audio track opened as a publication, with
/// what was taken out of it (its cover picture) as resources held in memory.
///
/// Only that file and those resources are reachable; any other href is `.notFound`, so a manifest-less
/// track cannot be used to read its neighbours.
public struct SingleFileContainer: Container {
    public let sourceURL: URL
    /// The file's name, its href.
    public let href: String
    /// Resources made from the file (href to bytes): its embedded cover.
    public let extracted: [String: Data]

    /// Reaches the file through `access` when it is remote.
    private let access: RemoteAccess?
    /// The remote file's bytes, when it was fetched whole (a web page): read from memory, not again.
    private let fetched: Data?

    public init(url: URL, extracted: [String: Data] = [:]) {
        sourceURL = url
        href = url.lastPathComponent
        self.extracted = extracted
        access = nil
        fetched = nil
    }

    /// The container of a remote file: its href is its whole URL, read through `access`, or from `fetched`
    /// when it was fetched whole already.
    public init(remote url: URL, access: RemoteAccess, extracted: [String: Data] = [:], fetched: Data? = nil) {
        sourceURL = url
        href = url.absoluteString
        self.extracted = extracted
        self.access = access
        self.fetched = fetched
    }

    public var entries: [String] { [href] + extracted.keys.sorted() }

    public func resource(at requested: String) throws(ResourceError) -> any Resource {
        if let access {
            if let data = extracted[requested] { return DataResource(href: requested, data: data) }
            guard requested == href else {
                throw ResourceError(.notFound, href: requested, message: "is not part of this single-file publication")
            }
            if let fetched { return DataResource(href: href, data: fetched) }
            return access.resource(url: href)
        }
        let normalized = try Href(requested)
        if let data = extracted[normalized.path] { return DataResource(href: normalized.path, data: data) }
        guard normalized.path == href else {
            throw ResourceError(.notFound, href: requested, message: "is not part of this single-file publication")
        }
        return FileResource(url: sourceURL, href: href)
    }
}
