// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Streams a range of a remote resource's bytes in order, reconnecting from the exact byte where a
/// transfer broke (with backoff, a warning each time).
///
/// With a server that ignores `Range` every attempt starts from byte 0 and what precedes the wanted
/// bytes is read and dropped: slow, but correct.
struct RemoteTransfer {
    let url: String
    let access: RemoteAccess
    let acceptsRanges: Bool

    /// Hands every byte of `range` to `deliver`, in order, on the calling thread; `deliver` returns false
    /// to stop. Returns false when stopped (by `deliver` or `shouldStop`) before the end of `range`.
    func run(
        _ range: Range<UInt64>, shouldStop: () -> Bool, deliver: (UnsafeRawBufferPointer) -> Bool
    ) throws(ResourceError) -> Bool {
        var position = range.lowerBound
        var stopped = false
        let loop = RemoteRetryLoop(access: access, url: url)
        let completed = try loop.run(shouldStop: shouldStop) { () throws(ResourceError) -> RemoteRetryLoop.Attempt in
            let startedAt = position
            let request = HTTPRequest(url: url, range: acceptsRanges ? position..<range.upperBound : nil)
            var verdict: RemoteResponse?
            var bodyError: ResourceError?
            // The offset in the resource of the next byte of the body.
            var bodyOffset: UInt64 = 0
            var bodyBytes: UInt64 = 0
            let head: HTTPResponseHead
            do throws(HTTPError) {
                head = try access.client.perform(request, shouldStop: { shouldStop() || access.cancellation.isCancelled }) { head, chunk in
                    if verdict == nil {
                        verdict = RemoteResponse(head: head, href: url)
                        if head.status == 206 {
                            guard let first = head.contentRange?.first, first <= position else {
                                bodyError = ResourceError(.badData, href: url, message: "the server sent bytes from \(head.contentRange?.first.map(String.init) ?? "an unknown offset") when asked for byte \(position)")
                                return false
                            }
                            bodyOffset = first
                        }
                    }
                    guard case .success = verdict else { return false }
                    bodyBytes += UInt64(chunk.count)
                    let chunkEnd = bodyOffset + UInt64(chunk.count)
                    defer { bodyOffset = chunkEnd }
                    guard chunkEnd > position else { return true }
                    let from = Int(position - bodyOffset)
                    let to = Int(min(chunkEnd, range.upperBound) - bodyOffset)
                    if from < to {
                        guard deliver(UnsafeRawBufferPointer(rebasing: chunk[from..<to])) else {
                            stopped = true
                            return false
                        }
                        position += UInt64(to - from)
                    }
                    return position < range.upperBound || head.bodyIsWhole(after: bodyBytes)
                }
            } catch {
                if access.cancellation.isCancelled { throw access.cancellation.error(href: url) }
                if stopped || shouldStop() { return .done }
                guard error.isTransient else { throw ResourceError(error, href: url) }
                return .retry(reason: error.message, resumeAt: position, progressed: position > startedAt, unreachable: error.leavesTheServerUnreachable)
            }
            if access.cancellation.isCancelled { throw access.cancellation.error(href: url) }
            if let bodyError { throw bodyError }
            if stopped || position >= range.upperBound { return .done }
            switch verdict ?? RemoteResponse(head: head, href: url) {
            case .failure(let error): throw error
            case .transientFailure(let reason): return .retry(reason: reason, resumeAt: position, progressed: position > startedAt)
            case .success: break
            }
            if shouldStop() { return .done }
            return .retry(reason: "the response ended at byte \(position), before byte \(range.upperBound)", resumeAt: position, progressed: position > startedAt)
        }
        return completed && !stopped && position >= range.upperBound
    }
}
