// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus

/// One sd-bus message (a method call received, or a reply or signal being built), owning a reference.
///
/// Not thread-safe, like every sd-bus object: use it only on the thread of the `DBusConnection` that
/// made or received it.
public final class DBusMessage {
    let pointer: OpaquePointer

    /// Takes over a reference the caller owns (released in deinit).
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Adds a reference to a message sd-bus lends to a callback (`sd_bus_message_ref`).
    convenience init(borrowing pointer: OpaquePointer) {
        self.init(owning: sd_bus_message_ref(pointer))
    }

    deinit {
        sd_bus_message_unref(pointer)
    }

    /// The interface of a method call or signal (`sd_bus_message_get_interface`).
    public var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
    /// The method or signal name (`sd_bus_message_get_member`).
    public var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }
    /// The object path (`sd_bus_message_get_path`).
    public var path: String? { sd_bus_message_get_path(pointer).map { String(cString: $0) } }
    /// The signature of the body (`sd_bus_message_get_signature`), "" when it has none.
    public var signature: String { sd_bus_message_get_signature(pointer, 1).map { String(cString: $0) } ?? "" }
    /// Whether the caller waits for a reply (`sd_bus_message_get_expect_reply`).
    var expectsReply: Bool { sd_bus_message_get_expect_reply(pointer) > 0 }

    // MARK: writing

    /// Appends `value`, containers included (`sd_bus_message_append_basic`, `sd_bus_message_open_container`).
    public func append(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .boolean(let flag):
            var number: Int32 = flag ? 1 : 0
            try appendBasic("b", &number)
        case .int32(var number):
            try appendBasic("i", &number)
        case .uint32(var number):
            try appendBasic("u", &number)
        case .int64(var number):
            try appendBasic("x", &number)
        case .double(var number):
            try appendBasic("d", &number)
        case .string(let text):
            try appendText("s", text)
        case .objectPath(let path):
            try appendText("o", path)
        case .array(let element, let values):
            try inContainer("a", element) { () throws(DBusError) in
                for value in values { try append(value) }
            }
        case .dictionary(let entries):
            try inContainer("a", "{sv}") { () throws(DBusError) in
                for key in entries.keys.sorted() {
                    try inContainer("e", "sv") { () throws(DBusError) in
                        try appendText("s", key)
                        try append(.variant(entries[key]!))
                    }
                }
            }
        case .variant(let inner):
            try inContainer("v", inner.signature) { () throws(DBusError) in try append(inner) }
        }
    }

    private func appendBasic<T>(_ type: Unicode.Scalar, _ value: inout T) throws(DBusError) {
        let status = withUnsafePointer(to: &value) { sd_bus_message_append_basic(pointer, CChar(type.value), $0) }
        try DBusError.check(status, "sd_bus_message_append_basic", "cannot add a '\(type)' value to a D-Bus message")
    }

    /// Strings and object paths are passed as the characters themselves, not a pointer to a pointer.
    private func appendText(_ type: Unicode.Scalar, _ text: String) throws(DBusError) {
        let status = text.withCString { sd_bus_message_append_basic(pointer, CChar(type.value), $0) }
        try DBusError.check(status, "sd_bus_message_append_basic", "cannot add '\(text)' to a D-Bus message")
    }

    private func inContainer(_ type: Unicode.Scalar, _ contents: String, _ body: () throws(DBusError) -> Void) throws(DBusError) {
        try DBusError.check(sd_bus_message_open_container(pointer, CChar(type.value), contents),
                            "sd_bus_message_open_container", "cannot open a '\(type)\(contents)' container")
        try body()
        try DBusError.check(sd_bus_message_close_container(pointer), "sd_bus_message_close_container", "cannot close a container")
    }
}
