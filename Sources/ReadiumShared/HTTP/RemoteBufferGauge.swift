// SPDX-License-Identifier: GPL-3.0-or-later
/// How far each remote track is fetched, for the `buffer` figure of `raudio play`'s `status`.
///
/// Each read-ahead stream records the end of the bytes it holds (the furthest byte fetched in a row
/// from where its reader is); a track read by several streams (a decoder, a probe) reports the
/// furthest. Read-ahead threads record; any thread reads. Thread-safe.
public final class RemoteBufferGauge: Sendable {
    private let readings = Locked<[String: (length: UInt64, ends: [ObjectIdentifier: UInt64])]>([:])

    public init() {}

    /// The furthest byte of `url` fetched by a live stream, and the resource's length; nil when no
    /// stream reads it.
    public func reading(url: String) -> (fetchedEnd: UInt64, length: UInt64)? {
        readings.withLock { readings in
            guard let entry = readings[url], let end = entry.ends.values.max() else { return nil }
            return (end, entry.length)
        }
    }

    func record(url: String, stream: ObjectIdentifier, fetchedEnd: UInt64, length: UInt64) {
        readings.withLock { readings in
            var entry = readings[url] ?? (length, [:])
            entry.length = length
            entry.ends[stream] = fetchedEnd
            readings[url] = entry
        }
    }

    func forget(url: String, stream: ObjectIdentifier) {
        readings.withLock { readings in
            readings[url]?.ends.removeValue(forKey: stream)
            if readings[url]?.ends.isEmpty == true { readings.removeValue(forKey: url) }
        }
    }
}
