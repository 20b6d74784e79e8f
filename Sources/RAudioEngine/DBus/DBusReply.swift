// SPDX-License-Identifier: GPL-3.0-or-later
/// How an object answers a method call.
public enum DBusReply: Sendable {
    /// A method return with these values as its body (none for a method that returns nothing).
    case values([DBusValue])
    /// An error reply, such as `org.freedesktop.DBus.Error.UnknownMethod`.
    case error(name: String, message: String)
    /// Not for this object: sd-bus goes on looking (and answers `UnknownMethod` when nothing takes it).
    case notHandled

    public static let empty = DBusReply.values([])
}
