// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A small remote document fetched whole: a publication's manifest.
public enum RemoteDocument {
    /// Fetches `url` whole (compressed if the server likes; redirects followed), retrying transient
    /// failures with `access.retryDelays`. Returns its bytes and the URL that served them (after
    /// redirects). Throws `.tooLarge` past `maximumBytes`, `.notFound` for 404/410, `.remoteUnavailable` for
    /// the rest. Blocks on the network.
    ///
    /// `isWanted`, when given, sees the first `headLength` bytes (or the whole document when shorter) once:
    /// false stops the transfer there, and those bytes are returned alone, so that a URL that turns out to
    /// be something else (an audio file, a ZIP) is recognized without downloading it.
    public static func fetch(
        url: String, access: RemoteAccess, maximumBytes: Int, headLength: Int = 4096, what: String = "a manifest",
        isWanted: ((Data) -> Bool)? = nil
    ) throws(ResourceError) -> (data: Data, url: String) {
        var body = Data()
        var finalURL = url
        let loop = RemoteRetryLoop(access: access, url: url)
        _ = try loop.run(shouldStop: { false }) { () throws(ResourceError) -> RemoteRetryLoop.Attempt in
            body = Data()
            var tooLarge = false
            var decided = isWanted == nil
            let head: HTTPResponseHead
            do throws(HTTPError) {
                head = try access.client.perform(HTTPRequest(url: url, acceptsCompression: true), shouldStop: { access.cancellation.isCancelled }) { head, chunk in
                    guard head.isSuccess else { return false }
                    guard body.count + chunk.count <= maximumBytes else {
                        tooLarge = true
                        return false
                    }
                    body.append(contentsOf: chunk)
                    if !decided, body.count >= headLength, let isWanted {
                        decided = true
                        if !isWanted(body) { return false }
                    }
                    return true
                }
            } catch {
                if access.cancellation.isCancelled { throw access.cancellation.error(href: url) }
                guard error.isTransient else { throw ResourceError(error, href: url) }
                return .retry(reason: error.message, resumeAt: nil, progressed: false, unreachable: error.leavesTheServerUnreachable)
            }
            if tooLarge {
                throw ResourceError(.tooLarge, href: url, message: "is larger than \(maximumBytes / 1024 / 1024) MB, too large for \(what)")
            }
            switch RemoteResponse(head: head, href: url) {
            case .failure(let error): throw error
            case .transientFailure(let reason): return .retry(reason: reason, resumeAt: nil, progressed: false)
            case .success: break
            }
            finalURL = head.url.isEmpty ? url : head.url
            return .done
        }
        return (body, finalURL)
    }
}
