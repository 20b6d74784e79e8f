// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import NIOHTTP1
import RAudioPlayer

/// Answers an HTTP request that did not become a WebSocket: with `--web`, the read-along site
/// (`ReadAlongSite`) for GET and HEAD; else 403 or 401 when `IPCAdmission` refused it, or 426 (only
/// WebSocket upgrades are served here). Every answer closes the connection.
///
/// Refused on every path, before any work: a request another site's page made (403), a WebSocket
/// upgrade that was not accepted (its refusal, 403 or 401, else 400 for a malformed one), a request
/// not complete (head and body) within `IPCLimits.headerTimeout` (the connection is closed).
///
/// Runs on the server's event loop; the site's files and resources are read on another thread, and a
/// resource is streamed in chunks (`IPCHTTPHandler+Streaming`).
final class IPCHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "raudio.ipc.http"

    private let admission: IPCAdmission
    private let site: ReadAlongSite?
    private let limits: IPCLimits
    private let gate: IPCConnectionGate?
    private var request: HTTPRequestHead?
    /// The body of a `POST /raudio/copy` (the page's selection), at most `ReadAlongSite.maximumCopyBytes`.
    private var body = Data()
    private var bodyTooLarge = false
    private var isAnswered = false
    private var requestDeadline: Scheduled<Void>?

    init(admission: IPCAdmission, site: ReadAlongSite?, limits: IPCLimits, gate: IPCConnectionGate? = nil) {
        self.admission = admission
        self.site = site
        self.limits = limits
        self.gate = gate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        requestDeadline = context.eventLoop.scheduleTask(in: limits.headerTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            body = Data()
            bodyTooLarge = false
        case .body(let buffer):
            // Only the page's copy requests have a body worth keeping; every other one is dropped as it comes.
            guard request?.method == .POST, !bodyTooLarge else { break }
            if body.count + buffer.readableBytes > ReadAlongSite.maximumCopyBytes {
                bodyTooLarge = true
                body = Data()
            } else {
                body.append(contentsOf: buffer.readableBytesView)
            }
        case .end:
            requestDeadline?.cancel()
            guard let head = request, !isAnswered else { return }
            // Whole now: no longer a place a newcomer may take.
            gate?.note(context.channel, .active)
            request = nil
            isAnswered = true
            answer(head, context: context)
        }
    }

    // No `errorCaught`: a refused upgrade reaches here as an error before its request is handed on
    // (`NIOWebSocketUpgradeError`), and must still be answered; parse errors are answered with 400 and
    // closed by NIO's `HTTPServerProtocolErrorHandler`.

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let channel = context.channel
        if admission.isCrossSite(head) {
            return Self.refuse(.forbidden, "another site's page may not use raudio", to: channel)
        }
        if head.headers["Upgrade"].contains(where: { $0.lowercased().contains("websocket") }) {
            let status = admission.refusal(of: head) ?? .badRequest
            return Self.refuse(status, status == .badRequest ? "a malformed WebSocket upgrade (RFC 6455 §4.2.1)"
                                                             : "the WebSocket upgrade is refused", to: channel)
        }
        if let site, head.method == .POST, head.uri.split(separator: "?", maxSplits: 1).first == "/raudio/copy" {
            guard admission.isServedHost(head) else {
                return Self.refuse(.forbidden, "the page is served to http://127.0.0.1:\(admission.port)/ only", to: channel)
            }
            guard !bodyTooLarge else {
                return Self.refuse(.payloadTooLarge, "a selection to copy is at most \(ReadAlongSite.maximumCopyBytes) bytes", to: channel)
            }
            let text = body
            body = Data()
            let limits = limits
            DispatchQueue.global().async {
                let response = site.copy(text)
                channel.eventLoop.execute { Self.write(response, includingBody: true, limits: limits, to: channel) }
            }
            return
        }
        guard let site, head.method == .GET || head.method == .HEAD else {
            let status = admission.refusal(of: head) ?? .upgradeRequired
            return Self.refuse(status, "connect with a WebSocket from raudio's own page or a program", to: channel)
        }
        guard admission.isServedHost(head) else {
            return Self.refuse(.forbidden, "the page is served to http://127.0.0.1:\(admission.port)/ only", to: channel)
        }
        let includingBody = head.method == .GET
        let path = head.uri
        let range = head.headers.first(name: "Range")
        let limits = limits
        DispatchQueue.global().async {
            let response = site.response(to: path, range: range)
            channel.eventLoop.execute { Self.write(response, includingBody: includingBody, limits: limits, to: channel) }
        }
    }

    private static func refuse(_ status: HTTPResponseStatus, _ reason: String, to channel: any Channel) {
        let text = "raudio: \(status.code) \(status.reasonPhrase): \(reason)\n"
        let response = ReadAlongSite.Response(status: Int(status.code), contentType: "text/plain; charset=utf-8", body: Data(text.utf8))
        write(response, includingBody: true, limits: IPCLimits(), to: channel)
    }

    private static func write(_ response: ReadAlongSite.Response, includingBody: Bool, limits: IPCLimits, to channel: any Channel) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.contentLength))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        if response.isPublicationContent {
            headers.add(name: "Accept-Ranges", value: "bytes")
            // The publication's pages share the origin that may drive the player: none of their scripts run.
            headers.add(name: "Content-Security-Policy", value: "script-src 'none'; object-src 'none'")
        }
        if let contentRange = response.contentRange { headers.add(name: "Content-Range", value: contentRange) }
        if let location = response.location { headers.add(name: "Location", value: location) }
        let status = HTTPResponseStatus(statusCode: response.status)
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)), promise: nil)
        if includingBody, let stream = response.stream {
            return streamBody(stream, from: stream.range.lowerBound, limits: limits, to: channel)
        }
        if includingBody && !response.body.isEmpty {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: response.body))), promise: nil)
        }
        finish(channel)
    }

    /// Ends the answer and closes the connection.
    static func finish(_ channel: any Channel) {
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }
}
