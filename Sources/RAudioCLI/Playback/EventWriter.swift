// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Something that follows a session's events besides stdout: the terminal display, MPRIS.
///
/// `receive` is called on the session loop's task, in event order; it must return quickly (hand the
/// event to a thread of its own when it has work to do).
protocol EventObserver: AnyObject, Sendable {
    func receive(_ event: JSONValue)
    /// The session is over (called once, before the process exits).
    func finish()
}

extension EventObserver {
    func finish() {}
}

/// An observer that sends events on as JSON text (the IPC server): it gets the bytes `EventWriter`
/// encoded once for every reader, instead of serializing each event a second time.
protocol EncodedEventObserver: EventObserver {
    /// Called instead of `receive(_:)`, on the session loop's task, in event order. `json` is the
    /// event's compact JSON text (UTF-8, no newline), the very bytes stdout gets.
    func receive(_ event: JSONValue, json: [UInt8])
}

/// Prints events as JSON lines on stdout, and the human part of problems on stderr; hands each event
/// to the observers too.
///
/// When stdout is closed (the reading app went away), `write` throws `StandardStreams.ReaderGone`
/// and the session stops quietly with exit 0. With the terminal player (`printsJSONLines` false),
/// nothing is printed on stdout: the display shows the events.
struct EventWriter {
    /// Whether events go to stdout as JSON lines (false when the terminal player draws them).
    var printsJSONLines = true
    var observers: [any EventObserver] = []
    /// The kinds of events stdout gets (`--events`); observers get them all.
    var selection = EventSelection.all
    /// Whose command is being answered: `ack` and `error` events go there only (see `CommandOrigin`).
    var answersTo: CommandOrigin = .everyone

    func write(_ event: JSONValue) throws(StandardStreams.ReaderGone) {
        if answersTo != .everyone, case .object(let fields) = event, fields["type"] == .string("ack") || fields["type"] == .string("error") {
            for case let recipient as any AnswerRecipient in observers { recipient.answer(event, to: answersTo) }
            return
        }
        // Encoded once (byte for byte `serialized()`), for stdout and the IPC clients alike.
        var json: [UInt8]?
        for observer in observers {
            if let encoded = observer as? any EncodedEventObserver {
                if json == nil { json = event.compactUTF8 }
                encoded.receive(event, json: json!)
            } else {
                observer.receive(event)
            }
        }
        guard printsJSONLines else { return }
        if case .object(let fields) = event, case .string(let kind)? = fields["type"], !selection.includes(kind) { return }
        var line = json ?? event.compactUTF8
        line.append(UInt8(ascii: "\n"))
        try StandardStreams.printLine(bytes: line)
    }

    /// A `warning` or `error` event, also logged on stderr (the terminal player shows it on its own line).
    func report(
        _ type: String, code: String, message: String, fatal: Bool, href: String? = nil, locator: Locator? = nil,
        id: CommandID? = nil
    ) throws(StandardStreams.ReaderGone) {
        if answersTo == .everyone, printsJSONLines || observers.isEmpty { StandardStreams.printError("raudio: \(type): \(message)") }
        try write(PlayerEvent.issue(type, code: code, message: message, fatal: fatal, href: href, locator: locator, id: id))
    }
}
