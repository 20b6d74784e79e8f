// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// The unix socket's file: checked before binding, created private (0600).
enum IPCSocketFile {
    /// Removes `path` when it is a stale socket (nobody listening); throws when it is anything else
    /// (a live socket, a file, a directory), which raudio must not replace.
    static func prepare(_ path: String) throws(IPCError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw IPCError(message: "--ipc unix:\(path): the path exists and is not a socket; choose another path")
        }
        if isListening(path) {
            throw IPCError(message: "--ipc unix:\(path): another program is listening there; choose another path")
        }
        unlink(path)
    }

    /// Runs `body` with the process umask at 0177, so that a socket bound in it is created 0600.
    static func withPrivateMode<T>(_ body: () throws -> T) rethrows -> T {
        let previous = umask(0o177)
        defer { umask(previous) }
        return try body()
    }

    /// Whether a `connect(2)` to the socket at `path` succeeds.
    private static func isListening(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
