// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The open directory of a folder book: its files are opened relative to this descriptor, one path
/// component at a time, following no symbolic link.
///
/// `FolderContainer` resolves an href once (`realpath(3)`, refusing what leaves the folder) into the path
/// of a real file under the root; every later open of that path goes through `open(relativePath:)`, which
/// refuses a symlink met on the way (`O_NOFOLLOW` on each component, `O_DIRECTORY` on the folders). So a
/// writer of the folder who swaps a file for a symlink between the check and the read gets an error, never
/// the bytes of a file outside the folder. The descriptor is closed when the last container or resource
/// holding it is released. Thread-safe: `openat(2)` on a shared directory descriptor needs no lock.
public final class FolderRoot: Sendable {
    let descriptor: Int32
    /// The folder's path, for messages only (never reopened by name).
    public let path: String

    /// Opens the folder at `path` (`open(2)` with `O_DIRECTORY`), or nil when it is not one.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptor = fd
        self.path = path
    }

    deinit {
        _ = close(descriptor)
    }

    /// Opens the regular file at `relativePath` under the root, read-only, following no symlink on the way
    /// (`openat(2)` with `O_NOFOLLOW` per component), and checks with `fstat(2)` that it is a regular file.
    ///
    /// `errorHref` is named in errors: a symlink met (`ELOOP`) or an absolute, `.` or `..` component is
    /// `.forbidden`; a missing file `.notFound`.
    func openFile(relativePath: String, errorHref: String) throws(ResourceError) -> FileDescriptor {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = components.last, !relativePath.hasPrefix("/"),
              !components.contains(where: { $0 == "." || $0 == ".." }) else {
            throw ResourceError(.forbidden, href: errorHref, message: "is not a path inside the publication's folder")
        }
        var directory = descriptor
        defer { if directory != descriptor { _ = close(directory) } }
        for name in components.dropLast() {
            let next = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { throw Self.openError(errno, href: errorHref) }
            if directory != descriptor { _ = close(directory) }
            directory = next
        }
        // O_NONBLOCK: a FIFO put in a file's place must not block the open; it is refused by fstat below.
        let fd = openat(directory, last, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Self.openError(errno, href: errorHref) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(fd)
            throw ResourceError(.notFound, href: errorHref, message: "is not a regular file in the publication's folder")
        }
        return FileDescriptor(rawValue: fd, errorHref: errorHref)
    }

    private static func openError(_ error: Int32, href: String) -> ResourceError {
        switch error {
        case ELOOP:
            return ResourceError(.forbidden, href: href, message: "became a symbolic link after it was looked up: it is not followed")
        case ENOTDIR:
            return ResourceError(.forbidden, href: href, message: "has a folder that is a symbolic link or not a folder: it is not followed")
        case ENOENT:
            return ResourceError(.notFound, href: href, message: "does not exist in the publication's folder")
        case EACCES, EPERM:
            return ResourceError(.io, href: href, message: "cannot be opened: permission denied")
        default:
            return ResourceError(.io, href: href, message: "cannot be opened: \(String(cString: strerror(error)))")
        }
    }
}
