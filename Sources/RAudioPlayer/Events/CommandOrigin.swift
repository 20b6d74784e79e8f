// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Where a command came from, so that its `ack` or `error` goes back there only.
///
/// stdin, the terminal player's keys and the desktop (MPRIS) are `.everyone`: their answers are
/// events like any other (stdout and every observer). An IPC client's answers go to that client alone.
public enum CommandOrigin: Sendable, Hashable {
    case everyone
    /// One client of the IPC server (`IPCServer`), by the number it gave the connection.
    case ipcClient(Int)
}

/// A command line from a client that wants its answers back: the words or JSON stdin takes, and its origin.
public struct AddressedCommand: Sendable {
    public var line: String
    public var origin: CommandOrigin
    /// Called once the session has handled the command (frees its place in the client's flow control).
    public var handled: @Sendable () -> Void = {}

    public init(line: String, origin: CommandOrigin, handled: @escaping @Sendable () -> Void = {}) {
        (self.line, self.origin, self.handled) = (line, origin, handled)
    }
}

/// An observer that can take answers meant for one of its clients (the IPC server).
public protocol AnswerRecipient: EventObserver {
    /// `event` (an `ack` or `error`) for the client `origin` only. Called on the session loop's task; returns quickly.
    func answer(_ event: PlayerEvent, to origin: CommandOrigin)
}
