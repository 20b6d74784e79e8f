// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What the first request for a remote resource learned: its length, whether the server honours
/// `Range`, and its first bytes.
struct RemoteProbe: Sendable {
    var length: UInt64
    var acceptsRanges: Bool
    /// The first bytes of the resource (all of it when it is short).
    var head: Data

    /// Fetches the first `access.headBytes` of `url`, retrying transient failures.
    static func fetch(url: String, access: RemoteAccess) throws(ResourceError) -> RemoteProbe {
        var probe: RemoteProbe?
        let loop = RemoteRetryLoop(access: access, url: url)
        _ = try loop.run(shouldStop: { false }) { () throws(ResourceError) -> RemoteRetryLoop.Attempt in
            let wanted = access.headBytes
            var body = Data()
            var received: UInt64 = 0
            var verdict: RemoteResponse?
            let head: HTTPResponseHead
            do throws(HTTPError) {
                head = try access.client.perform(HTTPRequest(url: url, range: 0..<UInt64(wanted)), shouldStop: { access.cancellation.isCancelled }) { head, chunk in
                    if verdict == nil { verdict = RemoteResponse(head: head, href: url) }
                    guard case .success = verdict else { return false }
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<min(chunk.count, wanted - body.count)]))
                    received += UInt64(chunk.count)
                    return body.count < wanted || head.bodyIsWhole(after: received)
                }
            } catch {
                if access.cancellation.isCancelled { throw access.cancellation.error(href: url) }
                guard error.isTransient else { throw ResourceError(error, href: url) }
                return .retry(reason: error.message, resumeAt: nil, progressed: false, unreachable: error.leavesTheServerUnreachable)
            }
            if head.status == 416 {
                // Nothing to range over: an empty file (`Content-Range: bytes */0`).
                probe = RemoteProbe(length: head.contentRange?.total ?? 0, acceptsRanges: true, head: Data())
                return .done
            }
            switch verdict ?? RemoteResponse(head: head, href: url) {
            case .failure(let error): throw error
            case .transientFailure(let reason): return .retry(reason: reason, resumeAt: nil, progressed: false)
            case .success: break
            }
            if head.status == 206 {
                guard let range = head.contentRange, range.first == 0, let total = range.total else {
                    throw ResourceError(.badData, href: url, message: "the server's Content-Range (\(head.headers["content-range"] ?? "none")) does not match the range asked for")
                }
                guard body.count >= min(wanted, Int(clamping: total)) else {
                    return .retry(reason: "the connection closed after \(body.count) bytes", resumeAt: nil, progressed: false)
                }
                probe = RemoteProbe(length: total, acceptsRanges: true, head: body)
                return .done
            }
            // 200: the server ignores Range and sends the whole file; its length comes from Content-Length,
            // or from the body itself when it ended within the head.
            if let length = head.contentLength {
                probe = RemoteProbe(length: length, acceptsRanges: false, head: body.prefix(Int(clamping: length)))
            } else if body.count < wanted {
                probe = RemoteProbe(length: UInt64(body.count), acceptsRanges: false, head: body)
            } else {
                throw ResourceError(.badData, href: url, message: "the server gives neither its length (Content-Length) nor byte ranges, so it cannot be streamed")
            }
            return .done
        }
        guard let probe else { throw ResourceError(.remoteUnavailable, href: url, message: "was not fetched") }
        return probe
    }
}
