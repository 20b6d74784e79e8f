// SPDX-License-Identifier: GPL-3.0-or-later
import CCurl
import Foundation
import ReadiumShared

/// One libcurl easy handle (`curl_easy_init`), reused request after request so that its connections
/// stay open. Used by one thread at a time (`CurlHTTPClient` hands it out).
final class CurlEasyHandle {
    struct Settings {
        var userAgent: String
        var connectTimeout: Int
        var stallTimeout: Int
        var maximumRedirects: Int
    }

    private let curl: CurlLibrary
    private let handle: UnsafeMutableRawPointer
    /// libcurl writes the detail of a failure here (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init?(curl: CurlLibrary) {
        guard let handle = curl.easyInit() else { return nil }
        self.curl = curl
        self.handle = handle
    }

    deinit {
        curl.easyCleanup(handle)
        errorBuffer.deallocate()
    }

    /// Performs `request` with `curl_easy_perform`; see `HTTPClient.perform`.
    func perform(
        _ request: HTTPRequest, settings: Settings, shouldStop: () -> Bool, receive: (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        let outcome = withoutActuallyEscaping(shouldStop) { shouldStop in
            withoutActuallyEscaping(receive) { receive in
                let transfer = CurlTransfer(url: request.url, shouldStop: shouldStop, receive: receive)
                let (curl, handle) = (self.curl, self.handle)
                transfer.effectiveURL = {
                    var effective: UnsafeMutablePointer<CChar>?
                    raudio_curl_getinfo_string(curl.getinfo, handle, CURLINFO_EFFECTIVE_URL, &effective)
                    return effective.map { String(cString: $0) }
                }
                let context = Unmanaged.passUnretained(transfer).toOpaque()
                configure(request, settings: settings, context: context)
                let headerList = self.headerList(request.headers)
                defer {
                    raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_HTTPHEADER, nil)
                    curl.slistFreeAll(headerList)
                }
                raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_HTTPHEADER, headerList.map { UnsafeMutableRawPointer($0) })
                errorBuffer[0] = 0
                let code = withExtendedLifetime(transfer) { curl.easyPerform(handle) }
                // The callbacks must not outlive this call: clear what points at `transfer`.
                raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_WRITEDATA, nil)
                raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_HEADERDATA, nil)
                raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_XFERINFODATA, nil)
                let head = transfer.responseHead(curl: curl, handle: handle)
                return (code, head, transfer.receiverStopped, transfer.refusedRedirect ?? RedirectRule.refusal(asked: request.url, answered: head.url))
            }
        }
        let (code, head, receiverStopped, refusedRedirect) = outcome
        if let refusedRedirect {
            throw HTTPError(.invalidURL, url: request.url, message: refusedRedirect, libraryStatus: nil)
        }
        switch code {
        case CURLE_OK:
            return head
        case CURLE_WRITE_ERROR where receiverStopped, CURLE_ABORTED_BY_CALLBACK:
            return head
        default:
            throw error(for: code, url: request.url, settings: settings)
        }
    }

    /// The `curl_slist` of `headers` (`Name: value` each, in name order), nil when there are none; freed with
    /// `curl_slist_free_all` after the transfer. libcurl drops `Authorization` on a redirect to another host
    /// (`CURLOPT_UNRESTRICTED_AUTH` stays off).
    private func headerList(_ headers: [String: String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // A header value cannot hold a line break (it would start another header).
            let clean = value.filter { $0 != "\r" && $0 != "\n" }
            if let longer = curl.slistAppend(list, "\(name): \(clean)") { list = longer }
        }
        return list
    }

    private func configure(_ request: HTTPRequest, settings: Settings, context: UnsafeMutableRawPointer) {
        raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_URL, request.url)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_HTTPGET, 1)
        raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_CUSTOMREQUEST, nil)
        if request.method != .get {
            // An empty body (`Content-Length: 0`): LCP's register, renew and return put their parameters in the URL.
            raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_POST, 1)
            raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_POSTFIELDSIZE, 0)
            raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_COPYPOSTFIELDS, "")
            if request.method == .put { raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_CUSTOMREQUEST, "PUT") }
        }
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_NOSIGNAL, 1)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_FOLLOWLOCATION, 1)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_MAXREDIRS, settings.maximumRedirects)
        raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_PROTOCOLS_STR, "http,https")
        raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_USERAGENT, settings.userAgent)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_CONNECTTIMEOUT, settings.connectTimeout)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_LOW_SPEED_TIME, settings.stallTimeout)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_TCP_KEEPALIVE, 1)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_ERRORBUFFER, errorBuffer)
        if let range = request.rangeHeaderValue {
            // CURLOPT_RANGE takes the part after "bytes=".
            raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_RANGE, String(range.dropFirst("bytes=".count)))
        } else {
            raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_RANGE, nil)
        }
        // "" asks for every encoding libcurl can decode; nil sends no Accept-Encoding (byte ranges of tracks).
        if request.acceptsCompression {
            raudio_curl_setopt_string(curl.setopt, handle, CURLOPT_ACCEPT_ENCODING, "")
        } else {
            raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_ACCEPT_ENCODING, nil)
        }
        raudio_curl_setopt_data_callback(curl.setopt, handle, CURLOPT_WRITEFUNCTION, curlWriteCallback)
        raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_WRITEDATA, context)
        raudio_curl_setopt_data_callback(curl.setopt, handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_HEADERDATA, context)
        raudio_curl_setopt_progress_callback(curl.setopt, handle, curlProgressCallback)
        raudio_curl_setopt_pointer(curl.setopt, handle, CURLOPT_XFERINFODATA, context)
        raudio_curl_setopt_long(curl.setopt, handle, CURLOPT_NOPROGRESS, 0)
    }

    private func error(for code: CURLcode, url: String, settings: Settings) -> HTTPError {
        let detail = String(cString: errorBuffer)
        let summary = detail.isEmpty ? curl.easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)" : detail
        let status = Int32(code.rawValue)
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return HTTPError(.invalidURL, url: url, message: "is not a URL raudio can fetch (\(summary))", libraryStatus: status)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return HTTPError(.hostNotFound, url: url, message: "the host name does not resolve (\(summary))", libraryStatus: status)
        case CURLE_COULDNT_CONNECT:
            return HTTPError(.hostUnreachable, url: url, message: "cannot connect to the server (\(summary))", libraryStatus: status)
        case CURLE_TOO_MANY_REDIRECTS:
            return HTTPError(.tooManyRedirects, url: url, message: "more than \(settings.maximumRedirects) redirects, a redirect loop (\(summary))", libraryStatus: status)
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPError(.timedOut, url: url, message: "the server stopped answering (\(summary))", libraryStatus: status)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return HTTPError(.tls, url: url, message: "the secure connection (TLS) failed (\(summary))", libraryStatus: status)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_BAD_CONTENT_ENCODING:
            return HTTPError(.connectionLost, url: url, message: "the connection broke (\(summary))", libraryStatus: status)
        default:
            return HTTPError(.httpFailed, url: url, message: summary, libraryStatus: status)
        }
    }
}
