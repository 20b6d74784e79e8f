import Foundation
import ReadiumShared

/// A container holding exactly one file: a lone audio track opened as a publication.
///
/// Only that file is reachable; any other href is `.notFound`, so a manifest-less track cannot be used
/// to read its neighbours.
public struct SingleFileContainer: Container {
    public let sourceURL: URL
    /// The file's name, its only href.
    public let href: String

    public init(url: URL) {
        sourceURL = url
        href = url.lastPathComponent
    }

    public var entries: [String] { [href] }

    public func resource(at requested: String) throws(ResourceError) -> any Resource {
        let normalized = try Href(requested)
        guard normalized.path == href else {
            throw ResourceError(.notFound, href: requested, message: "is not part of this single-file publication")
        }
        return FileResource(url: sourceURL, href: href)
    }
}
