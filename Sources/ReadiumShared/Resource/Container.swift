// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A set of resources addressed by href: a folder on disk or a ZIP archive.
///
/// Hrefs are relative to the container's root, `/`-separated, without a leading slash. Lookups accept
/// what a manifest would write (percent-encoded, `./a`, `/a`, with a `#fragment`) and normalize it
/// with `Href`; hrefs that leave the root are refused with `.forbidden`. Implementations are safe to
/// call from any thread; calls may block on I/O.
public protocol Container: Sendable {
    /// The folder or archive file this container reads.
    var sourceURL: URL { get }

    /// The hrefs of every readable file (no folders), in a stable order, decoded (not percent-encoded).
    var entries: [String] { get }

    /// The resource at `href`; throws `.notFound` when absent, `.forbidden` when it leaves the root.
    func resource(at href: String) throws(ResourceError) -> any Resource

    /// Releases what the container holds open; further reads may fail. Safe to call twice.
    func close()
}

extension Container {
    public func close() {}
}
