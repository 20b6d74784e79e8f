import NIOCore
import NIOHTTP1

/// Answers an HTTP request that did not become a WebSocket: 403 or 401 when `IPCAdmission` refused
/// it, else 426 (only WebSocket upgrades are served here). Runs on the server's event loop.
final class IPCHTTPRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "raudio.ipc.http-refusal"

    private let admission: IPCAdmission
    private var status: HTTPResponseStatus?

    init(admission: IPCAdmission) {
        self.admission = admission
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = admission.refusal(of: head) ?? .upgradeRequired
        case .body:
            break
        case .end:
            let status = status ?? .badRequest
            let body = "raudio: \(status.code) \(status.reasonPhrase): connect with a WebSocket from raudio's own page or a program\n"
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            headers.add(name: "Content-Length", value: String(body.utf8.count))
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        }
    }
}
