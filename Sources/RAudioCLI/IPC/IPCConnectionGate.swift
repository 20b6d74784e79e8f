// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore

/// Counts the connections open on one listener and decides who stays when it is full.
///
/// Each listener has its own gate: TCP clients, however many, never take the owner's unix socket's places.
/// When the listener is full, a newcomer takes the place of a connection that has shown nothing yet: the
/// oldest whose HTTP request (an upgrade included, with or without its token) is not complete, else the
/// oldest WebSocket that has sent no frame since its upgrade. A connection that sent a whole request or a
/// frame (a command, a pong) is never evicted; with none idle, the newcomer is closed as accepted.
///
/// Confined to the server's event loop (the child channel initializers, the handlers and the close
/// futures run there), hence `@unchecked Sendable`.
final class IPCConnectionGate: @unchecked Sendable {
    /// What a connection has shown of itself, in the order it is evicted.
    enum Standing: Int, Comparable {
        /// Its HTTP request has not come whole yet.
        case requesting
        /// An upgraded WebSocket that has sent no frame yet.
        case silent
        /// It sent a whole request, a frame, or it is a unix-socket client.
        case active

        static func < (left: Standing, right: Standing) -> Bool { left.rawValue < right.rawValue }
    }

    private struct Entry {
        let channel: any Channel
        /// When it was admitted (a count): the oldest of a standing goes first.
        let order: Int
        var standing: Standing
    }

    private let maximum: Int
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var admitted = 0
    /// How many connections were closed to make room (for the tests).
    private(set) var evictions = 0

    init(maximum: Int) {
        self.maximum = maximum
    }

    var openConnections: Int { entries.count }

    /// Whether `channel` may stay open, in `standing`; if so it is counted until it closes. On a full
    /// listener an idle connection is closed to make room, if there is one.
    func admit(_ channel: any Channel, as standing: Standing) -> Bool {
        channel.eventLoop.preconditionInEventLoop()
        if entries.count >= maximum {
            guard let victim = entries.filter({ $0.value.standing < .active })
                .min(by: { ($0.value.standing, $0.value.order) < ($1.value.standing, $1.value.order) }) else { return false }
            entries[victim.key] = nil
            evictions += 1
            victim.value.channel.close(promise: nil)
        }
        let key = ObjectIdentifier(channel)
        admitted += 1
        entries[key] = Entry(channel: channel, order: admitted, standing: standing)
        channel.closeFuture.whenComplete { _ in
            // An evicted connection's entry is gone already.
            if self.entries[key]?.channel === channel { self.entries[key] = nil }
        }
        return true
    }

    /// `channel` showed more of itself: a whole request, an upgrade, a frame.
    func note(_ channel: any Channel, _ standing: Standing) {
        channel.eventLoop.preconditionInEventLoop()
        entries[ObjectIdentifier(channel)]?.standing = standing
    }
}

/// A connection past `IPCLimits.maximumConnections`, closed as accepted.
struct IPCConnectionRefused: Error {}
