// SPDX-License-Identifier: GPL-3.0-or-later
/// Stops every remote transfer, retry and wait of a `RemoteAccess` at once: set when the session ends,
/// so that closing the player never waits for a slow or silent server.
///
/// Transfers notice within a second (libcurl polls its progress callback that often); a read waiting
/// on the network fails with `.remoteUnavailable`. Thread-safe; cannot be undone.
public final class RemoteCancellation: Sendable {
    private let flag = Locked(false)

    public init() {}

    public var isCancelled: Bool { flag.withLock { $0 } }

    public func cancel() {
        flag.withLock { $0 = true }
    }

    /// The error a cancelled operation on `href` throws.
    func error(href: String) -> ResourceError {
        ResourceError(.remoteUnavailable, href: href, message: "was not fetched: raudio is stopping")
    }
}
