// SPDX-License-Identifier: GPL-3.0-or-later
/// What a response's status means for a remote resource: its bytes, a failure worth retrying, or a
/// final failure.
enum RemoteResponse {
    case success
    /// 408, 429 and 5xx: the server may answer later.
    case transientFailure(String)
    case failure(ResourceError)

    init(head: HTTPResponseHead, href: String) {
        switch head.status {
        case 200..<300:
            self = .success
        case 404, 410:
            self = .failure(ResourceError(.notFound, href: href, message: "the server answered \(head.statusDescription)"))
        case 401, 403:
            self = .failure(ResourceError(.remoteUnavailable, href: href, message: "the server refused access (\(head.statusDescription))"))
        case 408, 429, 500...:
            self = .transientFailure("the server answered \(head.statusDescription)")
        default:
            self = .failure(ResourceError(.remoteUnavailable, href: href, message: "the server answered \(head.statusDescription)"))
        }
    }
}

extension ResourceError {
    /// The resource error for a network failure of `href` that retries did not cure.
    /// The HTTP error is kept as the cause.
    init(_ error: HTTPError, href: String, file: String = #fileID, function: String = #function, line: Int = #line) {
        self.init(error.leavesTheServerUnreachable ? .remoteUnreachable : .remoteUnavailable, href: href, message: error.message, cause: error,
                  file: file, function: function, line: line)
    }
}
