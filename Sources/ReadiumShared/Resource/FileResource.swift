// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A single file on disk, read with `pread(2)`.
///
/// Each call opens the file, reads and closes it, so the value is `Sendable` and any number of
/// threads may read ranges at once. Calls block on disk I/O: call them from your own threads.
public struct FileResource: Resource {
    public let href: String
    /// The absolute path of the file.
    public let path: String

    /// A resource for the file at `url`; `href` defaults to the file's name.
    public init(url: URL, href: String? = nil) {
        self.path = url.path
        self.href = href ?? url.lastPathComponent
    }

    public var isRandomAccessCheap: Bool { true }

    /// The file's current size (`fstat(2)`).
    public func length() throws(ResourceError) -> UInt64 {
        try FileDescriptor.withOpened(path: path, errorHref: href) { fd throws(ResourceError) in try fd.size() }
    }

    /// Reads `range` clamped to the file's size, or the whole file when `range` is nil.
    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        try FileDescriptor.withOpened(path: path, errorHref: href) { fd throws(ResourceError) in
            let size = try fd.size()
            let wanted = (range ?? 0..<size).clamped(to: 0..<size)
            guard !wanted.isEmpty else { return Data() }
            return try fd.read(at: wanted.lowerBound, count: Int(wanted.count))
        }
    }

    /// Keeps the file open for the session's reads (one `open(2)` instead of one per read).
    public func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        OpenFileReadSession(descriptor: try FileDescriptor.opened(path: path, errorHref: href))
    }

    /// Reads with `pread(2)` straight into `buffer` (no `fstat`, no `Data`); short only at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        try FileDescriptor.withOpened(path: path, errorHref: href) { fd throws(ResourceError) in
            try fd.read(into: buffer, at: offset)
        }
    }
}
