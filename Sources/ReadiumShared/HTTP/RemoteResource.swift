// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A file on a web server read with HTTP range requests: a track or a picture of a remote audiobook.
///
/// The first read fetches the resource's head (`RemoteAccess.headBytes`), which tells its length and
/// whether the server honours `Range`; the head stays in memory, so the header reads of decoders and
/// sniffers cost no request. Other reads fetch only their range; a decoder's read session streams
/// through a read-ahead buffer (`RemoteReadSession`). Transient failures are retried from the exact
/// byte with backoff, each with a `RemoteWarning`. Safe to call from any thread; calls block on the
/// network, so never call them from Swift's cooperative pool in a loop.
public final class RemoteResource: Resource {
    /// The absolute `http(s)://` URL, which is also the href the publication names it by.
    public let href: String
    public let access: RemoteAccess
    private let probe = Locked<RemoteProbe?>(nil)
    /// The last small read past the head (a tag at the end of a file, read again by every decoder).
    private let recentRead = Locked<(range: Range<UInt64>, data: Data)?>(nil)
    static let recentReadLimit = 16 * 1024

    public init(url: String, access: RemoteAccess) {
        self.href = url
        self.access = access
    }

    public var isRandomAccessCheap: Bool { true }

    public var isRemote: Bool { true }

    public func length() throws(ResourceError) -> UInt64 {
        try probed().length
    }

    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        let probe = try probed()
        let wanted = (range ?? 0..<probe.length).clamped(to: 0..<probe.length)
        guard !wanted.isEmpty else { return Data() }
        if wanted.upperBound <= UInt64(probe.head.count) {
            return probe.head.subdata(in: Int(wanted.lowerBound)..<Int(wanted.upperBound))
        }
        if let recent = recentRead.withLock({ $0 }), recent.range.contains(wanted.lowerBound), wanted.upperBound <= recent.range.upperBound {
            let from = Int(wanted.lowerBound - recent.range.lowerBound)
            return recent.data.subdata(in: from..<(from + Int(wanted.count)))
        }
        var data = Data()
        data.reserveCapacity(Int(clamping: min(wanted.count, 16 * 1024 * 1024)))
        let transfer = RemoteTransfer(url: href, access: access, acceptsRanges: probe.acceptsRanges)
        _ = try transfer.run(wanted, shouldStop: { false }) { bytes in
            data.append(contentsOf: bytes)
            return true
        }
        if wanted.count <= Self.recentReadLimit, data.count == Int(wanted.count) {
            recentRead.withLock { $0 = (wanted, data) }
        }
        return data
    }

    public func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        RemoteReadSession(url: href, access: access, probe: try probed())
    }

    /// The first request's findings, fetched once (two threads asking at once may both fetch).
    func probed() throws(ResourceError) -> RemoteProbe {
        if let known = probe.withLock({ $0 }) { return known }
        let fetched = try RemoteProbe.fetch(url: href, access: access)
        probe.withLock { $0 = fetched }
        return fetched
    }
}
