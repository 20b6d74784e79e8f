// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import RAudioPlayer

/// What one IPC or `--web` client may hold of the player: connections, time to send a request, time
/// to take what it is sent. See docs/SECURITY.md.
struct IPCLimits: Sendable {
    /// Connections open at once on each listener (`--ipc-max-connections`): each `--ipc` address and
    /// `--web` has its own count, so clients of one never keep the owner out of another. One more on a full
    /// listener takes the place of its oldest idle connection (`IPCConnectionGate`), or is closed as soon
    /// as it is accepted when none is idle, so file descriptors stay for playback.
    var maximumConnections = 64
    /// An HTTP request (an upgrade included) not complete by then, head and body, is closed.
    var headerTimeout = TimeAmount.seconds(10)
    /// A `--web` client that takes no byte of an answer for this long is dropped.
    var sendTimeout = TimeAmount.seconds(30)
    /// A WebSocket client is sent a ping this often, and dropped when it sent no frame (its pong, a
    /// command) since the last one: a client that reads nothing goes within two intervals, one that reads
    /// (its library or browser answers pings) may listen for hours.
    var pingInterval = TimeAmount.seconds(30)

    /// The defaults, with `RAUDIO_IPC_HEADER_TIMEOUT` and `RAUDIO_IPC_PING_INTERVAL` (seconds, for tests)
    /// read from `environment`.
    static func from(maximumConnections: Int, environment: [String: String] = ProcessInfo.processInfo.environment) -> IPCLimits {
        var limits = IPCLimits()
        limits.maximumConnections = maximumConnections
        if let text = environment["RAUDIO_IPC_HEADER_TIMEOUT"], let seconds = Double(text), seconds > 0 {
            limits.headerTimeout = .nanoseconds(Int64(seconds * 1e9))
        }
        if let text = environment["RAUDIO_IPC_PING_INTERVAL"], let seconds = Double(text), seconds > 0 {
            limits.pingInterval = .nanoseconds(Int64(seconds * 1e9))
        }
        return limits
    }
}
