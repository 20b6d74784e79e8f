// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared

/// The HTTP client of a raudio process and where its retry warnings go.
///
/// Commands open publications with `RemoteAccessSetup.access`; a warning goes to stderr until a
/// command routes it elsewhere (`raudio play` makes it a `warning` event too).
enum RemoteAccessSetup {
    /// One client for the process, so its kept-alive connections serve every track.
    static let client = CurlHTTPClient()
    static let warnings = RemoteWarningRelay()

    /// The disk cache's default size (`--cache-size`).
    static let defaultCacheBytes: Int64 = 512 * 1024 * 1024
    private static let cacheState = Locked<(capacity: Int64, cache: RemoteByteCache?)>((defaultCacheBytes, nil))

    /// Sets the disk cache's size before anything is fetched; 0 turns it off.
    static func setCacheCapacity(_ bytes: Int64) {
        cacheState.withLock { $0 = (bytes, nil) }
    }

    /// The disk cache in `$XDG_CACHE_HOME/raudio`, made on first use; nil when turned off.
    static var cache: RemoteByteCache? {
        cacheState.withLock { state in
            guard state.capacity > 0 else { return nil }
            if state.cache == nil { state.cache = RemoteByteCache(folder: RemoteByteCache.defaultFolder(), capacity: state.capacity) }
            return state.cache
        }
    }

    /// Set when a session ends: every remote transfer, retry and wait stops, so that closing never
    /// waits for a slow or silent server.
    static let cancellation = RemoteCancellation()
    /// How far ahead of playback the remote tracks are fetched (`status`'s `buffer`).
    static let bufferGauge = RemoteBufferGauge()

    /// `RAUDIO_RETRY_DELAYS` (seconds, comma-separated) replaces the backoff, for tests.
    static var access: RemoteAccess {
        var access = RemoteAccess(client: client, cache: cache, onWarning: { warnings.deliver($0) })
        access.cancellation = cancellation
        access.bufferGauge = bufferGauge
        if let text = ProcessInfo.processInfo.environment["RAUDIO_RETRY_DELAYS"] {
            access.retryDelays = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 >= 0 }
        }
        return access
    }
}

/// Passes remote warnings to the handler a command set; called on read-ahead and decoder threads.
final class RemoteWarningRelay: Sendable {
    private let handler = Locked<(@Sendable (RemoteWarning) -> Void)?>(nil)

    /// Routes every later warning to `handler` (on the thread that met the failure).
    func route(to handler: @escaping @Sendable (RemoteWarning) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    func deliver(_ warning: RemoteWarning) {
        if let handler = handler.withLock({ $0 }) {
            handler(warning)
        } else {
            StandardStreams.printError("raudio: warning: \(warning)")
        }
    }
}

/// A size such as `512M`, `2G`, `100k` or `1048576` (bytes), as `--cache-size` takes it.
enum ByteSize {
    static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int64)] = [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) || trimmed.hasSuffix(suffix + "B") {
            let number = trimmed.hasSuffix("B") ? trimmed.dropLast(2) : trimmed.dropLast()
            guard let value = Double(number), value >= 0, let bytes = Int64(exactly: (value * Double(factor)).rounded(.down)) else { return nil }
            return bytes
        }
        return Int64(trimmed).flatMap { $0 >= 0 ? $0 : nil }
    }
}

extension RemoteAccessSetup {
    /// Seconds of `locator`'s track fetched ahead of it: where the fetched bytes end, in seconds at the
    /// track's average bytes per second (its length over its duration), less the locator's time in the
    /// track. Nil for a local track, one with no duration, or one nothing reads.
    static func bufferedSeconds(in publication: Publication, at locator: Locator) -> Double? {
        guard let link = publication.readingOrderLink(forHref: locator.href), let duration = link.duration, duration > 0,
              let resource = try? publication.resource(at: link.hrefWithoutFragment), resource.isRemote,
              let reading = bufferGauge.reading(url: resource.href), reading.length > 0 else { return nil }
        let fetchedSeconds = Double(reading.fetchedEnd) / (Double(reading.length) / duration)
        let heard = (locator.locations.progression ?? 0) * duration
        return (max(0, fetchedSeconds - heard) * 10).rounded() / 10
    }
}
