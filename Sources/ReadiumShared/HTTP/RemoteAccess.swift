// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What remote resources are read with: the HTTP client, and how they retry, buffer and warn.
///
/// One value is shared by every remote resource of a publication (`HTTPContainer`,
/// `RemoteLinkContainer`).
public struct RemoteAccess: Sendable {
    public var client: any HTTPClient
    /// The pauses before each new attempt after a transient failure (a lost connection, a timeout, a
    /// 5xx answer): exponential backoff. Their count is the number of retries before giving up.
    public var retryDelays: [Double]
    /// The most bytes a track's read-ahead buffer holds; reading ahead stops there until the decoder
    /// has used some.
    public var readAheadBytes: Int
    /// The bytes fetched by the first request for a track; they stay in memory for the resource's life
    /// (the headers a decoder reads first and again when it reopens the track).
    public var headBytes: Int
    /// Told about each retry, on the thread that reads (a decoder's, a read-ahead thread).
    public var onWarning: @Sendable (RemoteWarning) -> Void
    /// The resources opened lately, shared by every copy of this value.
    public let registry = RemoteResourceRegistry()
    /// Cancels every remote operation of this access (and its copies) at once, when the session ends.
    public var cancellation = RemoteCancellation()
    /// Where read-ahead threads say how far ahead of their reader they are.
    public var bufferGauge = RemoteBufferGauge()
    /// Where fetched track bytes are kept on disk, so that seeking back or replaying fetches nothing;
    /// nil for none.
    public var cache: RemoteByteCache?

    public init(
        client: any HTTPClient, retryDelays: [Double] = [0.25, 0.5, 1, 2, 4], readAheadBytes: Int = 512 * 1024,
        headBytes: Int = 64 * 1024, cache: RemoteByteCache? = nil, onWarning: @escaping @Sendable (RemoteWarning) -> Void = { _ in }
    ) {
        self.cache = cache
        self.client = client
        self.retryDelays = retryDelays
        self.readAheadBytes = max(64 * 1024, readAheadBytes)
        self.headBytes = max(4 * 1024, headBytes)
        self.onWarning = onWarning
    }
}

/// A transient failure of a remote resource that raudio works around by trying again.
public struct RemoteWarning: Sendable, Equatable, CustomStringConvertible {
    /// `remote-retry`.
    public var code: String
    /// The URL concerned.
    public var url: String
    /// What happened and what raudio does about it.
    public var message: String

    public init(code: String, url: String, message: String) {
        self.code = code
        self.url = url
        self.message = message
    }

    public var description: String { "\(url): \(message)" }
}
