// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that several threads share, guarded by a POSIX mutex.
///
/// Used instead of `Synchronization.Mutex` everywhere in raudio's sources: on Linux that `Mutex`
/// locks with a futex inside libswiftSynchronization.so, which ThreadSanitizer does not instrument,
/// so every access it guards looked like a race and had to be suppressed. `pthread_mutex_lock` is
/// intercepted by ThreadSanitizer, so the lock is visible and no suppression is needed.
///
/// `withLock` is not reentrant: calling it again on the same `Locked` from inside `body` deadlocks.
/// Keep `body` short and never block in it (no waiting on another thread, no C call that may block).
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
