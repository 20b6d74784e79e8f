// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Random access to the bytes of a ZIP archive: an open file (`pread(2)`), or a remote file (HTTP range
/// requests through `RemoteResource`). Reads return fewer bytes than asked only at the end.
protocol ZIPArchiveBytes {
    func size() throws(ResourceError) -> UInt64
    func read(at offset: UInt64, count: Int) throws(ResourceError) -> Data
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int
}

extension FileDescriptor: ZIPArchiveBytes {}

/// Where a ZIP archive is: opened for each read (`withBytes`), so that its container and entries are
/// `Sendable` and may be read from many threads at once.
protocol ZIPArchiveSource: Sendable {
    /// The archive's path or URL, named in errors.
    var name: String { get }
    /// Whether its bytes come over the network.
    var isRemote: Bool { get }
    /// Runs `body` with the archive open.
    func withBytes<T>(_ body: (any ZIPArchiveBytes) throws(ResourceError) -> T) throws(ResourceError) -> T
    /// A read session over `limit` bytes of the archive from the offset `base` finds in it (a STORED entry's
    /// data), for one reader; the archive is opened once for both.
    func openSession(
        limit: UInt64, truncationHref: String, base: (any ZIPArchiveBytes) throws(ResourceError) -> UInt64
    ) throws(ResourceError) -> any ResourceReadSession
}

/// An archive on disk, opened per call.
struct LocalZIPArchive: ZIPArchiveSource {
    let path: String

    var name: String { path }
    var isRemote: Bool { false }

    func withBytes<T>(_ body: (any ZIPArchiveBytes) throws(ResourceError) -> T) throws(ResourceError) -> T {
        try FileDescriptor.withOpened(path: path, errorHref: path) { descriptor throws(ResourceError) in try body(descriptor) }
    }

    func openSession(
        limit: UInt64, truncationHref: String, base: (any ZIPArchiveBytes) throws(ResourceError) -> UInt64
    ) throws(ResourceError) -> any ResourceReadSession {
        let descriptor = try FileDescriptor.opened(path: path, errorHref: path)
        do {
            return OpenFileReadSession(descriptor: descriptor, base: try base(descriptor), limit: limit, truncationHref: truncationHref)
        } catch {
            descriptor.close()
            throw error
        }
    }
}

/// An archive on a web server that honours `Range`: every read is a range request (its first 64 KiB
/// and its last small read kept by `RemoteResource`), and a STORED entry read by a decoder streams
/// through the remote file's read-ahead session.
struct RemoteZIPArchive: ZIPArchiveSource, ZIPArchiveBytes {
    let resource: RemoteResource

    var name: String { resource.href }
    var isRemote: Bool { true }

    func withBytes<T>(_ body: (any ZIPArchiveBytes) throws(ResourceError) -> T) throws(ResourceError) -> T {
        try body(self)
    }

    func openSession(
        limit: UInt64, truncationHref: String, base: (any ZIPArchiveBytes) throws(ResourceError) -> UInt64
    ) throws(ResourceError) -> any ResourceReadSession {
        OffsetReadSession(inner: try resource.openReadSession(), base: try base(self), limit: limit, truncationHref: truncationHref)
    }

    func size() throws(ResourceError) -> UInt64 { try resource.length() }

    func read(at offset: UInt64, count: Int) throws(ResourceError) -> Data {
        guard count > 0 else { return Data() }
        return try resource.read(range: offset..<(offset + UInt64(count)))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        try resource.read(into: buffer, at: offset)
    }
}

/// A session over `limit` bytes of another session's resource from `base` (a STORED entry of a remote archive).
final class OffsetReadSession: ResourceReadSession {
    private let inner: any ResourceReadSession
    private let base: UInt64
    private let limit: UInt64
    private let truncationHref: String

    init(inner: any ResourceReadSession, base: UInt64, limit: UInt64, truncationHref: String) {
        (self.inner, self.base, self.limit, self.truncationHref) = (inner, base, limit, truncationHref)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        guard offset < limit, buffer.count > 0 else { return 0 }
        let wanted = Int(min(UInt64(buffer.count), limit - offset))
        var done = 0
        // A remote session may hand back less than asked before the end (what has arrived so far).
        while done < wanted {
            let got = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<wanted]), at: base + offset + UInt64(done))
            if got == 0 { break }
            done += got
        }
        guard done == wanted else { throw ResourceError(.badData, href: truncationHref, message: "is truncated in the archive") }
        return done
    }
}
