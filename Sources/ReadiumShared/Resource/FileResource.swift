// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A single file on disk, read with `pread(2)`.
///
/// Each call opens the file, reads and closes it, so the value is `Sendable` and any number of
/// threads may read ranges at once. Calls block on disk I/O: call them from your own threads.
///
/// A file of a folder book (`FolderContainer`) is opened relative to the folder's open descriptor,
/// following no symlink (`FolderRoot`); a file the user named (`init(url:href:)`) is opened by its path.
public struct FileResource: Resource {
    public let href: String
    /// The absolute path of the file.
    public let path: String
    /// The folder book's root and the file's path under it, when the file belongs to one.
    private let folder: (root: FolderRoot, relativePath: String)?

    /// A resource for the file at `url`; `href` defaults to the file's name.
    public init(url: URL, href: String? = nil) {
        self.path = url.path
        self.href = href ?? url.lastPathComponent
        folder = nil
    }

    /// The file at `relativePath` (already resolved: no symlink, `.` or `..`) under `root`.
    init(root: FolderRoot, relativePath: String, href: String) {
        path = root.path + "/" + relativePath
        self.href = href
        folder = (root, relativePath)
    }

    public var isRandomAccessCheap: Bool { true }

    /// Opens the file: under its folder's descriptor without following symlinks, else by its path.
    private func opened() throws(ResourceError) -> FileDescriptor {
        if let folder {
            return try folder.root.openFile(relativePath: folder.relativePath, errorHref: href)
        }
        return try FileDescriptor.opened(path: path, errorHref: href)
    }

    private func withOpened<T>(_ body: (FileDescriptor) throws(ResourceError) -> T) throws(ResourceError) -> T {
        let descriptor = try opened()
        defer { descriptor.close() }
        return try body(descriptor)
    }

    /// The file's current size (`fstat(2)`).
    public func length() throws(ResourceError) -> UInt64 {
        try withOpened { fd throws(ResourceError) in try fd.size() }
    }

    /// Reads `range` clamped to the file's size, or the whole file when `range` is nil.
    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        try withOpened { fd throws(ResourceError) in
            let size = try fd.size()
            let wanted = (range ?? 0..<size).clamped(to: 0..<size)
            guard !wanted.isEmpty else { return Data() }
            return try fd.read(at: wanted.lowerBound, count: Int(wanted.count))
        }
    }

    /// Keeps the file open for the session's reads (one `open(2)` instead of one per read): every read
    /// of the session comes from that one file, whatever is renamed or linked in its place meanwhile.
    public func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        OpenFileReadSession(descriptor: try opened())
    }

    /// Reads with `pread(2)` straight into `buffer` (no `fstat`, no `Data`); short only at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        try withOpened { fd throws(ResourceError) in
            try fd.read(into: buffer, at: offset)
        }
    }
}
