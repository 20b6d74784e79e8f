// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import NIOWebSocket
import ReadiumShared

/// A WebSocket client once upgraded: text frames are commands, one per message; binary frames are
/// refused with an `error` event; pings are answered; a close is answered and the connection closed.
///
/// Runs on the server's event loop.
final class IPCWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let registry: IPCClientRegistry
    private let commands: AsyncStream<AddressedCommand>.Continuation
    private var id = 0
    /// The text of a fragmented message so far.
    private var message: [UInt8] = []
    private var isText = false

    init(registry: IPCClientRegistry, commands: AsyncStream<AddressedCommand>.Continuation) {
        self.registry = registry
        self.commands = commands
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { id = registry.add(context.channel, framing: .webSocket) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.remove(id)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            if frame.opcode != .continuation {
                message.removeAll(keepingCapacity: true)
                isText = frame.opcode == .text
            }
            if message.count < CommandLineReader.maximumLineLength {
                message += frame.unmaskedData.readableBytesView.prefix(CommandLineReader.maximumLineLength - message.count)
            }
            guard frame.fin else { return }
            if isText {
                commands.yield(AddressedCommand(line: String(decoding: message, as: UTF8.self), origin: .ipcClient(id),
                                                 handled: registry.commandArrived(from: id)))
            } else {
                let refusal = PlayerEvent.issue("error", code: "command-malformed",
                                                message: "a binary frame is not a command: send each command as a text frame", fatal: false)
                registry.send(refusal.serialized(), to: id)
            }
            message.removeAll(keepingCapacity: true)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
            context.writeAndFlush(wrapOutboundOut(close)).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
