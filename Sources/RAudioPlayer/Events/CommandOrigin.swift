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

/// An observer that can take answers meant for one of its clients (the IPC server).
public protocol AnswerRecipient: EventObserver {
    /// `event` (an `ack` or `error`) for the client `origin` only. Called on the session loop's task; returns quickly.
    func answer(_ event: PlayerEvent, to origin: CommandOrigin)
}
