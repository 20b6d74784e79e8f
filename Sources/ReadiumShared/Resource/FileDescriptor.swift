// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A read-only POSIX file descriptor, opened for one operation and closed by `withOpened`, or kept
/// open by one `OpenFileReadSession`.
///
/// Wraps `open(2)`, `fstat(2)` and `pread(2)`. Opening per operation keeps the resource types that use
/// it trivially `Sendable`: no descriptor they share outlives a call, so no read can race a `close`.
struct FileDescriptor {
    let rawValue: Int32
    /// The path or href named in errors.
    let errorHref: String

    /// Opens `path` read-only, runs `body`, and closes the descriptor whatever happens.
    static func withOpened<T>(
        path: String, errorHref: String, _ body: (FileDescriptor) throws(ResourceError) -> T
    ) throws(ResourceError) -> T {
        let descriptor = try opened(path: path, errorHref: errorHref)
        defer { descriptor.close() }
        return try body(descriptor)
    }

    /// Opens `path` read-only; the caller closes it (`close()`), as `OpenFileReadSession` does.
    static func opened(path: String, errorHref: String) throws(ResourceError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            switch error {
            case ENOENT, ENOTDIR:
                throw ResourceError(.notFound, href: errorHref, message: "does not exist")
            case EACCES, EPERM:
                throw ResourceError(.io, href: errorHref, message: "cannot be opened: permission denied")
            case ENAMETOOLONG:
                throw ResourceError(.nameTooLong, href: PathLength.abbreviated(errorHref),
                                    message: PathLength.problem(path) ?? "is too long to be a path (ENAMETOOLONG)")
            default:
                throw ResourceError(.io, href: errorHref, message: "cannot be opened: \(String(cString: strerror(error)))")
            }
        }
        return FileDescriptor(rawValue: fd, errorHref: errorHref)
    }

    /// Closes the descriptor (`close(2)`); call once.
    func close() {
        closeDescriptor(rawValue)
    }

    /// The file's size in bytes (`fstat(2)`); fails for a directory.
    func size() throws(ResourceError) -> UInt64 {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else {
            throw ResourceError(.io, href: errorHref, message: "cannot be examined: \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ResourceError(.notFound, href: errorHref, message: "is a folder, not a file")
        }
        return UInt64(info.st_size)
    }

    /// Reads up to `count` bytes at `offset` with `pread(2)`, retrying short reads and EINTR;
    /// returns fewer bytes only at the end of the file.
    func read(at offset: UInt64, count: Int) throws(ResourceError) -> Data {
        // An offset past what off_t holds (a hostile ZIP64 field) reads as end of file, never traps.
        guard count > 0, offset <= UInt64(Int64.max) - UInt64(count) else { return Data() }
        var data = Data(count: count)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < count {
                let result = pread(rawValue, base + filled, count - filled, off_t(offset) + off_t(filled))
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if result == 0 { return }
                filled += result
            }
        }
        if failure != 0 {
            throw ResourceError(.io, href: errorHref, message: "cannot be read: \(String(cString: strerror(failure)))")
        }
        if filled < count { data.count = filled }
        return data
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer` with `pread(2)`, retrying short
    /// reads and EINTR; returns fewer bytes only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        let count = buffer.count
        guard count > 0, let base = buffer.baseAddress, offset <= UInt64(Int64.max) - UInt64(count) else { return 0 }
        var filled = 0
        while filled < count {
            let result = pread(rawValue, base + filled, count - filled, off_t(offset) + off_t(filled))
            if result < 0 {
                if errno == EINTR { continue }
                throw ResourceError(.io, href: errorHref, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if result == 0 { break }
            filled += result
        }
        return filled
    }

    /// Reads exactly `count` bytes at `offset`, or fails with `.badData` naming `what` as truncated.
    func readExactly(at offset: UInt64, count: Int, what: String) throws(ResourceError) -> Data {
        let data = try read(at: offset, count: count)
        guard data.count == count else {
            throw ResourceError(.badData, href: errorHref, message: "is truncated: \(what) ends early")
        }
        return data
    }
}

/// `close(2)`, named apart from `FileDescriptor.close()`, which shadows it inside the type.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
