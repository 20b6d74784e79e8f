// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The threads raudio owns: every thread raudio's own code starts is started here, named, and never taken from
/// Swift's cooperative pool. Libraries start their own (PulseAudio's mainloop, SwiftNIO's event loop, Foundation's
/// `Process`), and a few calls use libdispatch's global queue (docs/ARCHITECTURE.md, *Threads*).
///
/// Two shapes:
/// - `run(named:_:)`: blocking work (reading and parsing a resource, a C call that waits) run on a
///   thread of its own and awaited, so that it never holds one of the few threads of the cooperative pool;
/// - `startThread(named:_:)`: a long-lived thread (a loop reading a pipe, a worker serving a queue, the
///   render thread) that the caller stops in its own way (closing a descriptor, a flag, a queued command).
///
/// Each thread is named from inside, as its first act: on Linux a name given to a `Thread` before
/// `start()` stays in Foundation's object and never reaches the system thread, so `top -H`, `ps -L`,
/// `/proc/PID/task/TID/comm` and a debugger would show the name of the thread that started it instead. The system keeps at
/// most `systemNameLength` bytes of a name (a longer name is refused, not cut), so the name is cut there.
///
/// Threads get the system's default stack (8 MiB, `ulimit -s`): no caller needs another size.
public enum BlockingWork {
    /// The longest thread name Linux keeps, in bytes (`TASK_COMM_LEN` less its terminating zero).
    public static let systemNameLength = 15

    /// Runs `body` on a new thread named `name` and returns its result.
    public static func run<T: Sendable>(named name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            startThread(named: name) { continuation.resume(returning: body()) }
        }
    }

    /// Starts a thread named `name` running `body`, and returns at once; the thread ends when `body`
    /// returns.
    ///
    /// `qualityOfService` is handed to Foundation's `Thread` (which does not change a thread's priority on Linux).
    public static func startThread(
        named name: String, qualityOfService: QualityOfService = .default, _ body: @escaping @Sendable () -> Void
    ) {
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        thread.name = name
        thread.qualityOfService = qualityOfService
        thread.start()
    }

    /// Gives the calling thread `name` (cut to `systemNameLength` bytes) as the system knows it, by writing
    /// `/proc/thread-self/comm` as `pthread_setname_np` does (Swift's Glibc module does not declare it).
    /// Not `Thread.current.name`: inside a thread just started, Foundation may not yet know that thread
    /// as its own and then only keeps the name in its object.
    static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(systemName(name).utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// `name` cut to the bytes the system keeps, at a character's boundary.
    static func systemName(_ name: String) -> String {
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= systemNameLength else { break }
            cut.append(character)
        }
        return cut
    }
}
