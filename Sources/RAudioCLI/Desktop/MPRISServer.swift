// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared

/// The desktop's media controls: raudio as an MPRIS 2 player on the D-Bus session bus, named
/// `org.mpris.MediaPlayer2.raudio.instance<PID>`, so media keys, shell widgets and `playerctl` reach it.
///
/// Follows the session's events like any front end (`receive(_:)`, on the session loop's task: it
/// folds the event into a `Locked` state and queues a publish) and sends typed commands
/// (`commands`). The bus belongs to the "raudio.mpris" thread (`DBusServiceThread`): it connects
/// there, so playback never waits for D-Bus; method calls are answered there (`MPRISServer+Calls`) and
/// `PropertiesChanged` and `Seeked` are sent from there. Without a session bus it does nothing.
final class MPRISServer: EventObserver, Sendable {
    static let objectPath = "/org/mpris/MediaPlayer2"

    /// Commands from the desktop, in the words stdin takes.
    let commands: AsyncStream<PlayerCommand>
    let commandContinuation: AsyncStream<PlayerCommand>.Continuation
    let state: Locked<MPRISState>
    let busName: String
    private let cover: MPRISCover?
    private let thread: DBusServiceThread

    init(status: PlayerStatus, cover: MPRISCover?, busName: String = "org.mpris.MediaPlayer2.raudio.instance\(getpid())") {
        (commands, commandContinuation) = AsyncStream.makeStream(of: PlayerCommand.self)
        state = Locked(MPRISState(status: status))
        self.busName = busName
        self.cover = cover
        let box = WeakServer()
        thread = DBusServiceThread(
            name: "raudio.mpris",
            setUp: { connection throws(DBusError) in try box.server?.setUp(connection) },
            tearDown: { connection in
                guard let server = box.server else { return }
                try? connection.releaseName(server.busName)
            })
        box.server = self
    }

    /// Starts the "raudio.mpris" thread; returns at once.
    func start() {
        thread.start()
    }

    func receive(_ event: PlayerEvent) {
        let now = Date().timeIntervalSince1970
        let schedule = state.withLock { state in
            state.apply(event, now: now)
            defer { state.isPublishScheduled = true }
            return !state.isPublishScheduled
        }
        if schedule { thread.perform { [self] connection in publish(on: connection) } }
    }

    /// Releases the name, flushes and closes the bus, stops the thread, removes the cover file.
    func finish() {
        thread.stop()
        commandContinuation.finish()
        cover?.remove()
    }

    // MARK: on the "raudio.mpris" thread

    /// Writes the cover, serves the object, then takes the name (so the first look finds it all).
    private func setUp(_ connection: DBusConnection) throws(DBusError) {
        let coverURL = cover?.write()
        state.withLock { state in
            state.status.coverURL = coverURL
            state.markPublished()
        }
        try connection.addObject(path: Self.objectPath) { [self] call in handle(call) }
        try connection.requestName(busName)
    }

    /// Signals what changed since the last publish: `PropertiesChanged` and `Seeked`.
    private func publish(on connection: DBusConnection) {
        let (changed, seeked) = state.withLock { $0.takeChanges() }
        do {
            if !changed.isEmpty {
                let signal = try connection.makeSignal(path: Self.objectPath, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
                try signal.append(.string(MPRISProperties.playerInterface))
                try signal.append(.dictionary(changed))
                try signal.append(.strings([]))
                try connection.send(signal)
            }
            if let seeked {
                let signal = try connection.makeSignal(path: Self.objectPath, interface: MPRISProperties.playerInterface, member: "Seeked")
                try signal.append(.int64(seeked))
                try connection.send(signal)
            }
        } catch {
            // A signal that cannot be built or queued is lost; the next change signals again.
        }
    }
}

/// Lets the thread's closures reach the server without a retain cycle (the server owns the thread).
private final class WeakServer: @unchecked Sendable {
    // Set once in MPRISServer.init, before the thread starts; read only after.
    weak var server: MPRISServer?
}
