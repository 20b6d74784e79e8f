// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Something that follows a session's events: the stdout writer, the terminal display, MPRIS, the IPC server,
/// an app's own view.
///
/// `receive` is called on the session loop's task, in event order; it must return quickly (hand the
/// event to a thread of its own when it has work to do). It throws `ReaderGone` when whoever it
/// writes for went away for good (stdout closed): the session then ends quietly.
public protocol EventObserver: AnyObject, Sendable {
    func receive(_ event: PlayerEvent) throws(ReaderGone)
    /// The session is over (called once, before the process exits).
    func finish()
}

extension EventObserver {
    public func finish() {}
}

/// An observer that sends events on as JSON text (the stdout writer, the IPC server): it gets the bytes
/// encoded once for every such reader, instead of serializing each event again.
public protocol EncodedEventObserver: EventObserver {
    /// Called instead of `receive(_:)`, on the session loop's task, in event order. `json` is the
    /// event's compact JSON text (UTF-8, no newline), `event.json` serialized.
    func receive(_ event: PlayerEvent, json: [UInt8]) throws(ReaderGone)
}

extension EncodedEventObserver {
    public func receive(_ event: PlayerEvent) throws(ReaderGone) {
        try receive(event, json: event.json.compactUTF8)
    }
}

/// Whoever reads the events went away for good (stdout was closed): the session ends with exit 0.
public struct ReaderGone: Error {
    public init() {}
}

/// Hands each event of a session to its observers, in order.
public struct EventWriter: Sendable {
    public var observers: [any EventObserver] = []
    /// Whose command is being answered: `ack` and `error` events go there only (see `CommandOrigin`).
    public var answersTo: CommandOrigin = .everyone

    public init(observers: [any EventObserver] = []) {
        self.observers = observers
    }

    public func write(_ event: PlayerEvent) throws(ReaderGone) {
        if answersTo != .everyone, event.kind == .ack || event.kind == .error {
            for case let recipient as any AnswerRecipient in observers { recipient.answer(event, to: answersTo) }
            return
        }
        var json: [UInt8]?
        for observer in observers {
            if let encoded = observer as? any EncodedEventObserver {
                if json == nil { json = event.json.compactUTF8 }
                try encoded.receive(event, json: json!)
            } else {
                try observer.receive(event)
            }
        }
    }

    /// A `warning` or `error` event.
    public func report(
        _ severity: PlayerIssue.Severity, code: String, message: String, fatal: Bool = false, href: String? = nil,
        locator: Locator? = nil, id: CommandID? = nil
    ) throws(ReaderGone) {
        try write(.issue(severity, code: code, message: message, fatal: fatal, href: href, locator: locator, id: id))
    }
}
