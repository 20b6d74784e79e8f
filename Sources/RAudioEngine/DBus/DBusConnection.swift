// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus
import Glibc

/// A connection to the D-Bus session bus through sd-bus, used by the one thread that opened it.
///
/// sd-bus objects are not thread-safe: `DBusServiceThread` opens the connection on its own thread and
/// runs every call of it there, the object handlers included. `close()` (or deinit) flushes what is
/// queued and closes the connection.
public final class DBusConnection {
    let bus: OpaquePointer
    /// The objects served, kept alive with their handlers until `close()`.
    private var objects: [(slot: OpaquePointer, handler: Unmanaged<DBusObjectHandler>)] = []
    private var isClosed = false

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit { close() }

    /// Connects to the user's session bus (`sd_bus_open_user`): `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`. Throws when there is none.
    /// libsystemd is loaded here, the first time (CSystemdBus); when it cannot be, throws naming it.
    public static func openSessionBus() throws(DBusError) -> DBusConnection {
        if let reason = raudio_systemd_load_error() {
            throw DBusError("dlopen", code: -ELIBACC, message: String(cString: reason))
        }
        var bus: OpaquePointer?
        try DBusError.check(sd_bus_open_user(&bus), "sd_bus_open_user", "no D-Bus session bus")
        guard let bus else { throw DBusError("sd_bus_open_user", code: -ENOMEDIUM, message: "no D-Bus session bus") }
        return DBusConnection(bus: bus)
    }

    /// Takes a well-known name such as `org.mpris.MediaPlayer2.raudio.instance42` (`sd_bus_request_name`).
    public func requestName(_ name: String) throws(DBusError) {
        try DBusError.check(sd_bus_request_name(bus, name, 0), "sd_bus_request_name", "cannot own the D-Bus name \(name)")
    }

    /// Gives a well-known name back (`sd_bus_release_name`).
    public func releaseName(_ name: String) throws(DBusError) {
        try DBusError.check(sd_bus_release_name(bus, name), "sd_bus_release_name", "cannot release the D-Bus name \(name)")
    }

    /// Serves the object at `path` (`sd_bus_add_object`): every method call to it, whatever its
    /// interface (`org.freedesktop.DBus.Properties` and `Introspectable` included), goes to `handler`,
    /// which runs on this connection's thread while `process()` runs.
    public func addObject(path: String, handler: @escaping (DBusMessage) -> DBusReply) throws(DBusError) {
        let box = Unmanaged.passRetained(DBusObjectHandler(connection: self, handle: handler))
        var slot: OpaquePointer?
        let status = sd_bus_add_object(bus, &slot, path, dBusObjectCallback, box.toOpaque())
        guard status >= 0, let slot else {
            box.release()
            throw DBusError("sd_bus_add_object", code: status, message: "cannot serve the D-Bus object \(path)")
        }
        objects.append((slot, box))
    }

    /// A signal to fill and `send` (`sd_bus_message_new_signal`).
    public func makeSignal(path: String, interface: String, member: String) throws(DBusError) -> DBusMessage {
        var message: OpaquePointer?
        try DBusError.check(sd_bus_message_new_signal(bus, &message, path, interface, member), "sd_bus_message_new_signal",
                            "cannot make the D-Bus signal \(interface).\(member)")
        return DBusMessage(owning: message!)
    }

    /// Queues `message` for sending (`sd_bus_send`); `process()` and `flush()` write it out.
    public func send(_ message: DBusMessage) throws(DBusError) {
        try DBusError.check(sd_bus_send(bus, message.pointer, nil), "sd_bus_send", "cannot send a D-Bus message")
    }

    /// Answers `call` with `reply` (`sd_bus_message_new_method_return` and `sd_bus_send`, or
    /// `sd_bus_reply_method_error`). Nothing is sent to a caller that asked for no reply.
    func answer(_ call: DBusMessage, with reply: DBusReply) throws(DBusError) {
        switch reply {
        case .notHandled:
            return
        case .values(let values):
            guard call.expectsReply else { return }
            var message: OpaquePointer?
            try DBusError.check(sd_bus_message_new_method_return(call.pointer, &message), "sd_bus_message_new_method_return", "cannot answer a D-Bus call")
            let answer = DBusMessage(owning: message!)
            for value in values { try answer.append(value) }
            try send(answer)
        case .error(let name, let text):
            let status = name.withCString { namePointer in
                text.withCString { textPointer in
                    var error = sd_bus_error(name: namePointer, message: textPointer, _need_free: 0)
                    return sd_bus_reply_method_error(call.pointer, &error)
                }
            }
            try DBusError.check(status, "sd_bus_reply_method_error", "cannot answer a D-Bus call with \(name)")
        }
    }

    // MARK: the event loop

    /// Handles what the bus has for us, one message at a time (`sd_bus_process`); true when it did
    /// something (call it again), false when there is nothing to do until the descriptor is ready.
    public func process() throws(DBusError) -> Bool {
        try DBusError.check(sd_bus_process(bus, nil), "sd_bus_process", "the D-Bus connection failed") > 0
    }

    /// The descriptor to poll (`sd_bus_get_fd`).
    public var fileDescriptor: Int32 { sd_bus_get_fd(bus) }
    /// The poll events to wait for (`sd_bus_get_events`).
    public var pollEvents: Int16 { Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus))) }

    /// How long poll may wait, in milliseconds (-1 for ever), from `sd_bus_get_timeout`'s CLOCK_MONOTONIC deadline.
    public var pollTimeout: Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(min(UInt64(Int32.max), (deadline - nowMicroseconds + 999) / 1000))
    }

    /// Writes out everything queued (`sd_bus_flush`).
    public func flush() {
        _ = sd_bus_flush(bus)
    }

    /// Stops serving the objects, flushes and closes the connection (`sd_bus_slot_unref`,
    /// `sd_bus_flush_close_unref`). Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for object in objects {
            sd_bus_slot_unref(object.slot)
            object.handler.release()
        }
        objects = []
        sd_bus_flush_close_unref(bus)
    }
}

/// An object's handler, handed to sd-bus as the callback's userdata.
final class DBusObjectHandler {
    unowned let connection: DBusConnection
    let handle: (DBusMessage) -> DBusReply

    init(connection: DBusConnection, handle: @escaping (DBusMessage) -> DBusReply) {
        self.connection = connection
        self.handle = handle
    }
}

/// sd-bus's callback for every message to an object added with `sd_bus_add_object`; runs on the
/// connection's thread, inside `sd_bus_process`. Returns 1 when the message was answered, 0 to let
/// sd-bus go on (it then answers `UnknownMethod` itself).
private func dBusObjectCallback(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ returnError: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    let handler = Unmanaged<DBusObjectHandler>.fromOpaque(userdata).takeUnretainedValue()
    guard sd_bus_message_is_method_call(message, nil, nil) > 0 else { return 0 }
    let call = DBusMessage(borrowing: message)
    let reply = handler.handle(call)
    if case .notHandled = reply { return 0 }
    do {
        try handler.connection.answer(call, with: reply)
    } catch {
        return error.underlyingStatus ?? -EIO
    }
    return 1
}
