// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus
import Glibc

extension DBusMessage {
    /// Reads the next argument of a method call: a basic value or a variant holding one
    /// (`sd_bus_message_peek_type`, `sd_bus_message_read_basic`, `sd_bus_message_enter_container`).
    /// Throws for other containers (MPRIS takes none) and at the end of the body.
    public func read() throws(DBusError) -> DBusValue {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = try DBusError.check(sd_bus_message_peek_type(pointer, &type, &contents), "sd_bus_message_peek_type", "cannot read a D-Bus argument")
        guard peeked > 0 else { throw DBusError("sd_bus_message_peek_type", code: -EINVAL, message: "a D-Bus argument is missing") }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "v"):
            try DBusError.check(sd_bus_message_enter_container(pointer, type, contents), "sd_bus_message_enter_container", "cannot read a variant")
            let inner = try read()
            try DBusError.check(sd_bus_message_exit_container(pointer), "sd_bus_message_exit_container", "cannot read a variant")
            return .variant(inner)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var text: UnsafePointer<CChar>?
            try readBasic(type, &text)
            let string = text.map { String(cString: $0) } ?? ""
            return type == CChar(UInt8(ascii: "o")) ? .objectPath(string) : .string(string)
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            try readBasic(type, &flag)
            return .boolean(flag != 0)
        case UInt8(ascii: "i"):
            var number: Int32 = 0
            try readBasic(type, &number)
            return .int32(number)
        case UInt8(ascii: "u"):
            var number: UInt32 = 0
            try readBasic(type, &number)
            return .uint32(number)
        case UInt8(ascii: "x"):
            var number: Int64 = 0
            try readBasic(type, &number)
            return .int64(number)
        case UInt8(ascii: "d"):
            var number: Double = 0
            try readBasic(type, &number)
            return .double(number)
        default:
            throw DBusError("sd_bus_message_peek_type", code: -EINVAL,
                            message: "a D-Bus argument of type '\(Character(Unicode.Scalar(UInt8(bitPattern: type))))' is not supported")
        }
    }

    /// Reads all the arguments of a method call (see `read()`).
    public func readAll() throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while sd_bus_message_at_end(pointer, 0) == 0 { values.append(try read()) }
        return values
    }

    private func readBasic<T>(_ type: CChar, _ value: inout T) throws(DBusError) {
        let status = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(pointer, type, $0) }
        try DBusError.check(status, "sd_bus_message_read_basic", "cannot read a D-Bus argument")
    }
}
