// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Lets a thread that reads resources (the render thread) learn when one of its reads waits on the
/// network and when it got its bytes, so that it can show `loading` while it cannot render.
///
/// Per thread: the reading thread installs its observer; a remote read that waits calls it on that
/// same thread (`true` once the wait passed `threshold`, `false` when the bytes came or the read
/// failed). Reads on other threads (openings, probes) notify nobody.
public enum ResourceWaitObserver {
    /// How long a read waits before it counts as buffering: shorter waits are a network's normal pace.
    public static let threshold: TimeInterval = 0.2

    private final class Box {
        let observer: (Bool) -> Void
        init(_ observer: @escaping (Bool) -> Void) { self.observer = observer }
    }

    private static let key = "raudio.resource-wait-observer"

    /// Makes `observer` the calling thread's; it is called on this thread only.
    public static func install(_ observer: @escaping (Bool) -> Void) {
        Thread.current.threadDictionary[key] = Box(observer)
    }

    /// Forgets the calling thread's observer.
    public static func uninstall() {
        Thread.current.threadDictionary.removeObject(forKey: key)
    }

    /// Tells the calling thread's observer, if any, that its read waits (`true`) or goes on (`false`).
    static func notify(waiting: Bool) {
        (Thread.current.threadDictionary[key] as? Box)?.observer(waiting)
    }
}
