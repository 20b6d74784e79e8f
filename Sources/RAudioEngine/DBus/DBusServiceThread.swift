// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ReadiumShared

/// A thread of its own that owns a D-Bus session-bus connection and serves objects on it.
///
/// The thread connects (`DBusConnection.openSessionBus`), runs `setUp` (take a name, add objects),
/// then polls the bus descriptor (with `sd_bus_get_events` and `sd_bus_get_timeout`) and a wake pipe.
/// Other threads hand it work with `perform(_:)`: the job is queued behind a `Locked` and a byte
/// written to the pipe; jobs and object handlers both run on this thread, so no sd-bus object is ever
/// touched by two threads. Without a session bus, or when it goes away, the thread ends quietly and
/// `perform` does nothing. `stop()` runs `tearDown`, flushes, closes the connection and waits for the
/// thread to end.
public final class DBusServiceThread: Sendable {
    public typealias Job = @Sendable (DBusConnection) -> Void

    private struct State {
        var jobs: [Job] = []
        var isStopping = false
        var isStarted = false
        var isEnded = false
    }

    private let name: String
    private let state = Locked(State())
    /// The wake pipe: [read end, write end], both non-blocking.
    private let wakePipe: (read: Int32, write: Int32)
    private let ended = DispatchSemaphore(value: 0)
    private let setUp: @Sendable (DBusConnection) throws(DBusError) -> Void
    private let tearDown: Job

    /// `setUp` and `tearDown` run on the thread, once connected and before the connection closes.
    public init(
        name: String, setUp: @escaping @Sendable (DBusConnection) throws(DBusError) -> Void, tearDown: @escaping Job = { _ in }
    ) {
        self.name = name
        self.setUp = setUp
        self.tearDown = tearDown
        var descriptors: [Int32] = [-1, -1]
        // Non-blocking both ends: a full pipe never blocks a caller of `perform`, nor a drain the thread.
        // (glibc's pipe2 is hidden behind _GNU_SOURCE in Swift's Glibc module.)
        if pipe(&descriptors) == 0 {
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        } else {
            descriptors = [-1, -1]
        }
        wakePipe = (descriptors[0], descriptors[1])
    }

    deinit {
        if wakePipe.read >= 0 { Glibc.close(wakePipe.read) }
        if wakePipe.write >= 0 { Glibc.close(wakePipe.write) }
    }

    /// Starts the thread; connecting happens there, so this returns at once.
    public func start() {
        let alreadyStarted = state.withLock { state in
            defer { state.isStarted = true }
            return state.isStarted
        }
        guard !alreadyStarted, wakePipe.read >= 0 else { return }
        BlockingWork.startThread(named: name) { [self] in
            run()
            state.withLock { $0.isEnded = true }
            ended.signal()
        }
    }

    /// Runs `job` on the thread with its connection, after the jobs already queued; returns at once.
    /// Dropped when there is no connection (no session bus, or stopped).
    public func perform(_ job: @escaping Job) {
        let queued = state.withLock { state -> Bool in
            guard state.isStarted, !state.isEnded, !state.isStopping else { return false }
            state.jobs.append(job)
            return true
        }
        if queued { wake() }
    }

    /// Runs `tearDown`, flushes and closes the connection, and waits (at most `timeout`) for the thread to end.
    public func stop(timeout: Duration = .seconds(2)) {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.isStopping = true }
            return state.isStarted && !state.isStopping
        }
        guard wasRunning else { return }
        wake()
        let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        _ = ended.wait(timeout: .now() + .milliseconds(milliseconds))
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakePipe.write, &byte, 1)
    }

    // MARK: on the thread

    private func run() {
        let connection: DBusConnection
        do {
            connection = try DBusConnection.openSessionBus()
            try setUp(connection)
        } catch {
            return  // No session bus (or no name for us): the desktop's controls are simply not offered.
        }
        defer {
            tearDown(connection)
            connection.close()
        }
        do {
            while true {
                let (jobs, isStopping) = state.withLock { state in
                    defer { state.jobs = [] }
                    return (state.jobs, state.isStopping)
                }
                for job in jobs { job(connection) }
                if isStopping { return }
                while try connection.process() {}
                waitForWork(connection)
            }
        } catch {
            return  // The bus went away.
        }
    }

    /// Polls the bus and the wake pipe until one is ready or the bus's timeout passes; drains the pipe.
    private func waitForWork(_ connection: DBusConnection) {
        var descriptors = [
            pollfd(fd: connection.fileDescriptor, events: connection.pollEvents, revents: 0),
            pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
        ]
        let timeout = connection.pollTimeout
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if ready > 0, descriptors[1].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while Glibc.read(wakePipe.read, &buffer, buffer.count) > 0 {}
        }
    }
}
