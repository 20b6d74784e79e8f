// SPDX-License-Identifier: GPL-3.0-or-later
import CCurl
import Foundation
import ReadiumShared

/// raudio's `HTTPClient`: libcurl from Debian, through its blocking easy interface.
///
/// A blocking client suits the callers: decoders pull bytes on their own threads and read-ahead
/// threads fetch ranges, so there is no event loop to feed. Easy handles are kept between requests
/// (up to `maximumIdleHandles`), and with them libcurl's connections: keep-alive, HTTP/2 where the
/// server offers it over TLS. Redirects are followed up to `maximumRedirects`, between `http` and
/// `https` only; TLS checks certificates against the system's CA store; `http_proxy`, `https_proxy` and
/// `no_proxy` are honoured by libcurl itself; the User-Agent is `raudio/<version>`. Safe to call from
/// several threads: each call takes a handle of its own.
public final class CurlHTTPClient: HTTPClient {
    public static let maximumRedirects = 8
    /// Handles kept for reuse; more concurrent requests than this open handles that are then freed.
    static let maximumIdleHandles = 8

    public let userAgent: String
    /// Seconds to wait for a connection.
    public let connectTimeout: Int
    /// Seconds without a single byte after which a transfer fails with `.timedOut` (and is retried).
    public let stallTimeout: Int
    private let idleHandles = Locked<[CurlEasyHandle]>([])

    public init(userAgent: String = "raudio/\(RAudioVersion.current)", connectTimeout: Int = 10, stallTimeout: Int = 20) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
    }

    deinit {
        idleHandles.withLock { $0.removeAll() }
    }

    /// The libcurl version string (`curl_version_info`), for `raudio version` (loads libcurl).
    public static var libraryVersion: String {
        guard case .success(let curl) = CurlLibrary.shared,
              let info = curl.versionInfo(CURLVERSION_TENTH), let version = info.pointee.version else { return "unknown" }
        return String(cString: version)
    }

    public func perform(
        _ request: HTTPRequest, shouldStop: () -> Bool, receive: (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        let scheme = Href.scheme(of: request.url)
        guard scheme == "http" || scheme == "https" else {
            throw HTTPError(.invalidURL, url: request.url, message: "is not an http:// or https:// URL")
        }
        // libcurl is loaded (and `curl_global_init` called) by the first request of the process.
        let curl: CurlLibrary
        switch CurlLibrary.shared {
        case .success(let library): curl = library
        case .failure(let failure): throw HTTPError(.httpFailed, url: request.url, message: failure.message)
        }
        let handle = idleHandles.withLock { $0.popLast() } ?? CurlEasyHandle(curl: curl)
        guard let handle else {
            throw HTTPError(.httpFailed, url: request.url, message: "libcurl could not make a handle (curl_easy_init failed)")
        }
        defer {
            idleHandles.withLock { handles in
                if handles.count < Self.maximumIdleHandles { handles.append(handle) }
            }
        }
        let settings = CurlEasyHandle.Settings(
            userAgent: userAgent, connectTimeout: connectTimeout, stallTimeout: stallTimeout, maximumRedirects: Self.maximumRedirects
        )
        return try handle.perform(request, settings: settings, shouldStop: shouldStop, receive: receive)
    }
}
