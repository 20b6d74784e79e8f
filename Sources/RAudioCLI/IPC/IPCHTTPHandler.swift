// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import NIOHTTP1

/// Answers an HTTP request that did not become a WebSocket: with `--web`, the read-along site
/// (`ReadAlongSite`) for GET and HEAD; else 403 or 401 when `IPCAdmission` refused it, or 426 (only
/// WebSocket upgrades are served here). Every answer closes the connection.
///
/// Runs on the server's event loop; the site's files and resources are read on another thread.
final class IPCHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "raudio.ipc.http"

    private let admission: IPCAdmission
    private let site: ReadAlongSite?
    private var request: HTTPRequestHead?

    init(admission: IPCAdmission, site: ReadAlongSite?) {
        self.admission = admission
        self.site = site
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request else { return }
            request = nil
            answer(head, context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let channel = context.channel
        guard let site, head.method == .GET || head.method == .HEAD else {
            let status = admission.refusal(of: head) ?? .upgradeRequired
            let text = "raudio: \(status.code) \(status.reasonPhrase): connect with a WebSocket from raudio's own page or a program\n"
            return Self.write(ReadAlongSite.Response(status: Int(status.code), contentType: "text/plain; charset=utf-8", body: Data(text.utf8)),
                              includingBody: true, to: channel)
        }
        guard admission.isServedHost(head) else {
            let text = "raudio: 403 Forbidden: the page is served to http://127.0.0.1:\(admission.port)/ only\n"
            return Self.write(ReadAlongSite.Response(status: 403, contentType: "text/plain; charset=utf-8", body: Data(text.utf8)),
                              includingBody: true, to: channel)
        }
        let includingBody = head.method == .GET
        let path = head.uri
        DispatchQueue.global().async {
            let response = site.response(to: path)
            channel.eventLoop.execute { Self.write(response, includingBody: includingBody, to: channel) }
        }
    }

    private static func write(_ response: ReadAlongSite.Response, includingBody: Bool, to channel: any Channel) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        if response.isPublicationContent {
            // The publication's pages share the origin that may drive the player: none of their scripts run.
            headers.add(name: "Content-Security-Policy", value: "script-src 'none'; object-src 'none'")
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)), promise: nil)
        if includingBody {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: response.body))), promise: nil)
        }
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }
}
