// SPDX-License-Identifier: GPL-3.0-or-later
import CCurl
import Foundation
import ReadiumShared

/// What libcurl's callbacks of one `curl_easy_perform` share: the caller's closures and the headers
/// read so far. Lives on the performing thread for the length of the call.
final class CurlTransfer {
    let url: String
    let shouldStop: () -> Bool
    let receive: (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool
    /// Headers of the latest response (a redirect's are dropped when the next status line arrives).
    var headers: [String: String] = [:]
    var status = 0
    /// Set once the first body byte arrived, so that `receive` gets the same head every time.
    var head: HTTPResponseHead?
    /// Whether `receive` asked to stop (libcurl then reports CURLE_WRITE_ERROR, which is no failure).
    var receiverStopped = false
    /// The URL that answered, after redirects (`CURLINFO_EFFECTIVE_URL`), asked when the body starts.
    var effectiveURL: () -> String? = { nil }
    /// Why the answer is not used (`RedirectRule`): set before its first byte reaches `receive`.
    var refusedRedirect: String?

    init(url: String, shouldStop: @escaping () -> Bool, receive: @escaping (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool) {
        self.url = url
        self.shouldStop = shouldStop
        self.receive = receive
    }

    /// The head of the final response: status and effective URL from `curl_easy_getinfo`.
    func responseHead(curl: CurlLibrary, handle: UnsafeMutableRawPointer) -> HTTPResponseHead {
        if let head { return head }
        var code = 0
        raudio_curl_getinfo_long(curl.getinfo, handle, CURLINFO_RESPONSE_CODE, &code)
        var effective: UnsafeMutablePointer<CChar>?
        raudio_curl_getinfo_string(curl.getinfo, handle, CURLINFO_EFFECTIVE_URL, &effective)
        return HTTPResponseHead(status: code != 0 ? code : status, url: effective.map { String(cString: $0) } ?? url, headers: headers)
    }

    /// One header line: a status line starts a new response, other lines are `Name: value`.
    func take(headerLine line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            headers = [:]
            let parts = trimmed.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].lowercased()
            headers[name] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
}

/// `CURLOPT_WRITEFUNCTION`: hands a chunk of the body to the transfer's `receive`.
func curlWriteCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    if transfer.head == nil {
        let head = HTTPResponseHead(status: transfer.status, url: transfer.effectiveURL() ?? transfer.url, headers: transfer.headers)
        transfer.head = head
        transfer.refusedRedirect = RedirectRule.refusal(asked: transfer.url, answered: head.url)
    }
    guard transfer.refusedRedirect == nil else { return 0 }
    guard transfer.receive(transfer.head!, UnsafeRawBufferPointer(start: data, count: total)) else {
        transfer.receiverStopped = true
        return 0
    }
    return total
}

/// `CURLOPT_HEADERFUNCTION`: one header line (or status line) at a time.
func curlHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context, let data else { return 0 }
    let total = size * count
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.take(headerLine: String(decoding: UnsafeRawBufferPointer(start: data, count: total), as: UTF8.self))
    return total
}

/// `CURLOPT_XFERINFOFUNCTION`: called at least once a second; non-zero aborts the transfer.
func curlProgressCallback(_ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t, _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
}
