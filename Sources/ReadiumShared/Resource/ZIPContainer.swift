// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The files of a ZIP archive (`.zab`, `.lcpa`, `.epub`, `.zip`), read without extracting them.
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

    /// Reads the central directory of the archive at `url`.
    ///
    /// Throws `.notFound` for a missing file and `.badData` ("is not a ZIP archive (...)", with the
    /// archive's path as href) for an empty, truncated or non-ZIP file.
    public init(url: URL) throws(ResourceError) {
        sourceURL = url
        let directory = try FileDescriptor.withOpened(path: url.path, errorHref: url.path) { fd throws(ResourceError) in
            try ZIPCentralDirectory(fd: fd, archiveHref: url.path)
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
        return ZIPEntryResource(info: info, archivePath: sourceURL.path, archiveSize: archiveSize)
    }
}
