// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Blocking work (reading and parsing a resource, a C call that waits) run on a thread of its own and
/// awaited, so that it never holds one of the few threads of Swift's cooperative pool.
public enum BlockingWork {
    /// Runs `body` on a new thread named `name` and returns its result.
    public static func run<T: Sendable>(named name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = name
            thread.start()
        }
    }
}
