// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The files of a ZIP archive (`.zab`, `.lcpa`, `.epub`, `.zip`), on disk or on a web server, read without
/// extracting them.
///
/// The central directory is read once, at `init`. Reads open the archive file per call, so the
/// container and its resources are `Sendable` and may be read from many threads at once. STORED
/// entries are read with `pread(2)` at their data offset (cheap random access); DEFLATED entries are
/// inflated from their start with ZIPFoundation's zlib stream (see `ZIPEntryResource`).
///
/// Entries that cannot be addressed safely are left out and reported in `warnings`: names that are
/// absolute or contain `..`, later duplicates of a name (the first wins), and folders. Names without
/// the UTF-8 flag that are not valid UTF-8 are decoded as code page 437.
public struct ZIPContainer: Container {
    public let sourceURL: URL
    public let entries: [String]
    /// What was skipped or decoded leniently while reading the central directory, one sentence each.
    public let warnings: [String]
    private let index: [String: ZIPEntryInfo]
    private let archiveSize: UInt64
    private let source: any ZIPArchiveSource

    /// Reads the central directory of the archive at `url`.
    ///
    /// Throws `.notFound` for a missing file and `.badData` ("is not a ZIP archive (...)", with the
    /// archive's path as href) for an empty, truncated or non-ZIP file.
    public init(url: URL) throws(ResourceError) {
        try self.init(sourceURL: url, source: LocalZIPArchive(path: url.path))
    }

    /// Reads the central directory of the archive at a remote `url` (`https://host/book.epub`) with range
    /// requests through `access`; its entries are read the same way, a STORED one streamed by a decoder
    /// through the remote file's read-ahead. The server must honour `Range` (else `.remoteUnavailable`: the
    /// whole archive would be fetched for every read).
    public init(remote url: URL, access: RemoteAccess) throws(ResourceError) {
        let resource = access.resource(url: url.absoluteString)
        guard try resource.probed().acceptsRanges else {
            throw ResourceError(.remoteUnavailable, href: url.absoluteString,
                                message: "is served without byte ranges, so its files cannot be read in place: download it and open the file")
        }
        try self.init(sourceURL: url, source: RemoteZIPArchive(resource: resource))
    }

    private init(sourceURL: URL, source: any ZIPArchiveSource) throws(ResourceError) {
        self.sourceURL = sourceURL
        self.source = source
        let directory = try source.withBytes { bytes throws(ResourceError) in
            try ZIPCentralDirectory(fd: bytes, archiveHref: source.name)
        }
        entries = directory.entries.map(\.href)
        warnings = directory.warnings
        archiveSize = directory.archiveSize
        index = Dictionary(directory.entries.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        let normalized = try Href(href)
        if let info = index[normalized.path] {
            return try makeResource(info, requested: href)
        }
        if href.contains("%"), let literal = try? Href(href, decodingPercentEscapes: false), let info = index[literal.path] {
            return try makeResource(info, requested: href)
        }
        throw ResourceError(.notFound, href: href, message: "is not in the archive \(sourceURL.lastPathComponent)")
    }

    private func makeResource(_ info: ZIPEntryInfo, requested: String) throws(ResourceError) -> ZIPEntryResource {
        if info.isEncrypted {
            throw ResourceError(.badData, href: info.href, message: "is encrypted with ZIP encryption, which is not supported")
        }
        guard info.compressionMethod == ZIPEntryInfo.stored || info.compressionMethod == ZIPEntryInfo.deflated else {
            throw ResourceError(.badData, href: info.href,
                                message: "uses ZIP compression method \(info.compressionMethod); only STORED and DEFLATED are supported")
        }
        return ZIPEntryResource(info: info, source: source, archiveSize: archiveSize)
    }
}
