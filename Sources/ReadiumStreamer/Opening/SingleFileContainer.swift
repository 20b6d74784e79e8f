// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A container holding exactly one file: a lone audio track opened as a publication, with what was
/// taken out of it (its cover picture) as resources held in memory.
///
/// Only that file and those resources are reachable; any other href is `.notFound`, so a manifest-less
/// track cannot be used to read its neighbours.
public struct SingleFileContainer: Container {
    public let sourceURL: URL
    /// The file's name, its href.
    public let href: String
    /// Resources made from the file (href to bytes): its embedded cover.
    public let extracted: [String: Data]

    public init(url: URL, extracted: [String: Data] = [:]) {
        sourceURL = url
        href = url.lastPathComponent
        self.extracted = extracted
    }

    public var entries: [String] { [href] + extracted.keys.sorted() }

    public func resource(at requested: String) throws(ResourceError) -> any Resource {
        let normalized = try Href(requested)
        if let data = extracted[normalized.path] { return DataResource(href: normalized.path, data: data) }
        guard normalized.path == href else {
            throw ResourceError(.notFound, href: requested, message: "is not part of this single-file publication")
        }
        return FileResource(url: sourceURL, href: href)
    }
}
