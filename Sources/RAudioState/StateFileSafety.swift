// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The checks made before SQLite opens the state file: the folder is the user's own and private
/// (0700), and the file (with its `-wal` and `-shm`) is a regular file of the user's, never a symbolic
/// link, so a link planted there cannot make raudio (perhaps run as root) create or write a file
/// elsewhere.
///
/// The file is created here with `open(2)` and `O_NOFOLLOW | O_CREAT` (mode 0600) before SQLite opens
/// it by path: SQLite has no no-follow flag GRDB passes, and once the folder is 0700 and the user's,
/// nobody else can swap the file between this check and SQLite's open.
enum StateFileSafety {
    /// Why the state cannot be kept safely (a warning's text).
    struct Refusal: Error {
        var message: String
    }

    /// Creates `directory` (0700) or checks that an existing one belongs to the user, tightening its
    /// mode to 0700.
    static func prepareDirectory(_ directory: URL) throws(Refusal) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Refusal(message: "the listening state cannot be kept in \(directory.path) (\(ListeningStateStore.describe(error)))")
        }
        var info = stat()
        guard stat(directory.path, &info) == 0 else {
            throw Refusal(message: "the listening state cannot be kept in \(directory.path) (\(String(cString: strerror(errno))))")
        }
        guard info.st_uid == getuid() else {
            throw Refusal(message: "\(directory.path) belongs to user \(info.st_uid), not to you (\(getuid())): the listening state is not kept there")
        }
        if info.st_mode & 0o077 != 0 { chmod(directory.path, 0o700) }
    }

    /// Creates `file` if missing, without following a symbolic link, and checks that it and its `-wal`
    /// and `-shm` companions are regular files of the user's.
    static func checkFile(_ file: URL) throws(Refusal) {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "is a symbolic link" : String(cString: strerror(errno))
            throw Refusal(message: "\(file.path) \(reason): the listening state is not opened through it")
        }
        var info = stat()
        let status = fstat(descriptor, &info)
        close(descriptor)
        guard status == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else {
            throw Refusal(message: "\(file.path) is not a regular file of yours: the listening state is not opened through it")
        }
        for suffix in ["-wal", "-shm"] {
            var companion = stat()
            guard lstat(file.path + suffix, &companion) == 0 else { continue }
            guard companion.st_mode & S_IFMT == S_IFREG, companion.st_uid == getuid() else {
                throw Refusal(message: "\(file.path)\(suffix) is not a regular file of yours (a symbolic link?): the listening state is not opened through it")
            }
        }
    }
}
