// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer

/// Answers the method calls to `/org/mpris/MediaPlayer2`, on the "raudio.mpris" thread.
extension MPRISServer {
    private static let propertiesInterface = "org.freedesktop.DBus.Properties"

    func handle(_ call: DBusMessage) -> DBusReply {
        guard let interface = call.interface, let member = call.member else { return .notHandled }
        let arguments: [DBusValue]
        do {
            arguments = try call.readAll()
        } catch {
            return Self.invalidArguments("\(member): \(error.message)")
        }
        switch interface {
        case "org.freedesktop.DBus.Introspectable" where member == "Introspect":
            return .values([.string(MPRISIntrospection.xml)])
        case Self.propertiesInterface:
            return handleProperties(member, arguments)
        case MPRISProperties.rootInterface:
            switch member {
            case "Raise": return .empty
            case "Quit": return send(.quit)
            default: return Self.unknownMethod(interface, member)
            }
        case MPRISProperties.playerInterface:
            return handlePlayer(member, arguments)
        default:
            return .notHandled
        }
    }

    private func handlePlayer(_ member: String, _ arguments: [DBusValue]) -> DBusReply {
        let now = Date().timeIntervalSince1970
        let current = state.withLock { $0 }
        switch member {
        case "Play": return send(.play)
        case "Pause": return send(.pause)
        case "PlayPause": return send(.toggle)
        case "Stop": return send(.stop)
        case "Next": return send(MPRISCommands.next(current.status))
        case "Previous": return send(MPRISCommands.previous(current.status))
        case "Seek":
            guard arguments.count == 1, case .int64(let offset) = arguments[0] else { return Self.invalidArguments("Seek takes (x)") }
            return send(MPRISCommands.seek(by: offset, state: current, now: now))
        case "SetPosition":
            guard arguments.count == 2, case .objectPath(let track) = arguments[0], case .int64(let position) = arguments[1] else {
                return Self.invalidArguments("SetPosition takes (ox)")
            }
            return send(MPRISCommands.setPosition(trackID: track, microseconds: position, state: current))
        case "OpenUri":
            return .error(name: "org.freedesktop.DBus.Error.NotSupported", message: "raudio plays the publication it was started with")
        default:
            return Self.unknownMethod(MPRISProperties.playerInterface, member)
        }
    }

    private func handleProperties(_ member: String, _ arguments: [DBusValue]) -> DBusReply {
        let strings = arguments.compactMap { if case .string(let text) = $0 { text } else { nil } }
        switch member {
        case "Get":
            guard arguments.count == 2, strings.count == 2 else { return Self.invalidArguments("Get takes (ss)") }
            guard let all = properties(of: strings[0]) else { return Self.unknownInterface(strings[0]) }
            guard let value = all[strings[1]] else { return Self.unknownProperty(strings[0], strings[1]) }
            return .values([.variant(value)])
        case "GetAll":
            guard arguments.count == 1, strings.count == 1 else { return Self.invalidArguments("GetAll takes (s)") }
            guard let all = properties(of: strings[0]) else { return Self.unknownInterface(strings[0]) }
            return .values([.dictionary(all)])
        case "Set":
            guard arguments.count == 3, strings.count == 2, let number = arguments[2].doubleValue else {
                return Self.invalidArguments("Set takes (ssv), a number for Rate and Volume")
            }
            return set(interface: strings[0], property: strings[1], to: number)
        default:
            return Self.unknownMethod(Self.propertiesInterface, member)
        }
    }

    /// The properties of `interface`, `Position` read now; nil for an interface the object lacks.
    private func properties(of interface: String) -> [String: DBusValue]? {
        switch interface {
        case MPRISProperties.rootInterface:
            return MPRISProperties.root
        case MPRISProperties.playerInterface:
            let now = Date().timeIntervalSince1970
            return state.withLock { state in
                var all = MPRISProperties.player(of: state)
                all["Position"] = .int64(state.position(now: now))
                return all
            }
        default:
            return nil
        }
    }

    private func set(interface: String, property: String, to value: Double) -> DBusReply {
        guard let all = properties(of: interface) else { return Self.unknownInterface(interface) }
        guard all[property] != nil else { return Self.unknownProperty(interface, property) }
        switch (interface, property) {
        case (MPRISProperties.playerInterface, "Rate"): return send(MPRISCommands.rate(value))
        case (MPRISProperties.playerInterface, "Volume"): return send(MPRISCommands.volume(value))
        default:
            return .error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(property) is read-only")
        }
    }

    /// Queues `command` for the session (nil: the call is accepted and ignored, as the spec asks).
    private func send(_ command: PlayerCommand?) -> DBusReply {
        if let command { commandContinuation.yield(command) }
        return .empty
    }

    private static func invalidArguments(_ message: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    private static func unknownMethod(_ interface: String, _ member: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "\(interface) has no method \(member)")
    }

    private static func unknownInterface(_ interface: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.UnknownInterface", message: "no interface \(interface) at \(objectPath)")
    }

    private static func unknownProperty(_ interface: String, _ property: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "\(interface) has no property \(property)")
    }
}
