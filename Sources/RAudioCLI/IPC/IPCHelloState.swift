// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What a client is told on connecting: the publication of the last `opened`, the last state and locator.
///
/// Folded from the session's own events, on the IPC server's event loop.
struct IPCHelloState {
    private var publication: JSONValue?
    private var state = "loading"
    private var locator: JSONValue?

    mutating func apply(_ event: JSONValue) {
        guard case .object(let fields) = event, case .string(let type)? = fields["type"] else { return }
        if type == "opened" { publication = fields["publication"] }
        if type == "state", case .string(let name)? = fields["state"] { state = name }
        if let locator = fields["locator"], type != "error", type != "warning" { self.locator = locator }
    }

    /// The `hello` event.
    var event: JSONValue {
        var fields: JSONObject = ["v": PlayerEvent.version, "type": "hello", "state": .string(state)]
        if let publication { fields["publication"] = publication }
        if let locator { fields["locator"] = locator }
        return .object(fields)
    }
}
