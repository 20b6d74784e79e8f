// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import RAudioPlayer

/// What one IPC or `--web` client may hold of the player: connections, time to send a request, time
/// to take what it is sent. See docs/SECURITY.md.
struct IPCLimits: Sendable {
    /// Connections open at once over every listener (`--ipc-max-connections`); one more is closed as
    /// soon as it is accepted, so file descriptors stay for playback.
    var maximumConnections = 64
    /// An HTTP request (an upgrade included) not complete by then, head and body, is closed.
    var headerTimeout = TimeAmount.seconds(10)
    /// A `--web` client that takes no byte of an answer for this long is dropped.
    var sendTimeout = TimeAmount.seconds(30)

    /// The defaults, with `RAUDIO_IPC_HEADER_TIMEOUT` (seconds, for tests) read from `environment`.
    static func from(maximumConnections: Int, environment: [String: String] = ProcessInfo.processInfo.environment) -> IPCLimits {
        var limits = IPCLimits()
        limits.maximumConnections = maximumConnections
        if let text = environment["RAUDIO_IPC_HEADER_TIMEOUT"], let seconds = Double(text), seconds > 0 {
            limits.headerTimeout = .nanoseconds(Int64(seconds * 1e9))
        }
        return limits
    }
}

/// Counts the connections open over every listener and turns away those past the cap.
///
/// Confined to the server's event loop (the child channel initializers and close futures run there),
/// hence `@unchecked Sendable`.
final class IPCConnectionGate: @unchecked Sendable {
    private let maximum: Int
    private(set) var openConnections = 0

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Whether `channel` may stay open; if so it is counted until it closes.
    func admit(_ channel: any Channel) -> Bool {
        channel.eventLoop.preconditionInEventLoop()
        guard openConnections < maximum else { return false }
        openConnections += 1
        channel.closeFuture.whenComplete { _ in self.openConnections -= 1 }
        return true
    }
}

/// A connection past `IPCLimits.maximumConnections`, closed as accepted.
struct IPCConnectionRefused: Error {}
