// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// An `HTTPClient` that counts the requests it passes on and the body bytes they brought, so that
/// `seek-latency URL` can tell what each timed seek fetched apart from the whole-file passes of the
/// same process (the frame index, the exactness check), which an access log cannot tell apart.
final class CountingHTTPClient: HTTPClient {
    private let client: any HTTPClient
    private let counts = Locked<(requests: Int, bytes: Int)>((0, 0))

    init(_ client: any HTTPClient) {
        self.client = client
    }

    /// Requests started and body bytes received so far.
    var totals: (requests: Int, bytes: Int) { counts.withLock { $0 } }

    func perform(
        _ request: HTTPRequest, shouldStop: () -> Bool, receive: (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        counts.withLock { $0.requests += 1 }
        return try client.perform(request, shouldStop: shouldStop) { head, body in
            counts.withLock { $0.bytes += body.count }
            return receive(head, body)
        }
    }
}
