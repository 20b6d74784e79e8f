// SPDX-License-Identifier: GPL-3.0-or-later
/// The remote resources opened lately, so that opening a track again (a decoder reopened, the next
/// track prefetched, a duration probed) reuses what its first request learned instead of asking again.
///
/// Holds the `capacity` most recently used (each keeps its head, `RemoteAccess.headBytes`, in memory).
/// Thread-safe.
public final class RemoteResourceRegistry: Sendable {
    public let capacity: Int
    /// Most recently used last.
    private let resources = Locked<[RemoteResource]>([])

    public init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
    }

    /// The resource of `url`, made with `make` when not held.
    func resource(url: String, make: () -> RemoteResource) -> RemoteResource {
        resources.withLock { held in
            if let index = held.firstIndex(where: { $0.href == url }) {
                let found = held.remove(at: index)
                held.append(found)
                return found
            }
            let made = make()
            held.append(made)
            if held.count > capacity { held.removeFirst(held.count - capacity) }
            return made
        }
    }
}

extension RemoteAccess {
    /// The resource at the absolute `url` (fragment dropped), shared with earlier callers while the
    /// registry holds it.
    public func resource(url: String) -> RemoteResource {
        let address = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
        return registry.resource(url: address) { RemoteResource(url: address, access: self) }
    }
}
