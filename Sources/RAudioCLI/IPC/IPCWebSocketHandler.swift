// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import NIOWebSocket
import RAudioPlayer
import ReadiumShared

/// A WebSocket client once upgraded: text frames are commands, one per message; binary frames are
/// refused with an `error` event; pings are answered; a close is answered and the connection closed.
///
/// The framing rules of RFC 6455 are kept (§5.1-5.5, §7.4): a frame from the client must be masked;
/// RSV bits (no extension is negotiated), reserved opcodes, a continuation with no message begun or a
/// new message inside a fragmented one end the connection with close code 1002; a text message that
/// is not UTF-8 with 1007; a close frame's code is checked before it is echoed (1002 otherwise).
/// Control frames longer than 125 bytes or fragmented are refused by NIO's decoder (1002).
///
/// Every `pingInterval` the client is sent a ping; one that sent no frame since the previous ping (it
/// reads nothing, so it answers nothing) is closed. Its first frame tells the listener's gate it is no
/// longer idle (`IPCConnectionGate`).
///
/// Runs on the server's event loop.
final class IPCWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let registry: IPCClientRegistry
    private let commands: AsyncStream<IncomingCommand>.Continuation
    private var id = 0
    /// The text of a fragmented message so far.
    private var message: [UInt8] = []
    private var isText = false
    /// Whether a fragmented message has begun and awaits its continuations.
    private var isInMessage = false
    private var isClosing = false
    private let gate: IPCConnectionGate?
    private let pingInterval: TimeAmount?
    private var pings: RepeatedTask?
    /// Whether a frame came since the last ping (or since the upgrade), and whether any came at all.
    private var answeredPing = true
    private var hasSentAFrame = false

    init(registry: IPCClientRegistry, commands: AsyncStream<IncomingCommand>.Continuation,
         gate: IPCConnectionGate? = nil, pingInterval: TimeAmount? = nil) {
        self.registry = registry
        self.commands = commands
        self.gate = gate
        self.pingInterval = pingInterval
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        id = registry.add(context.channel, framing: .webSocket)
        if let pingInterval {
            let channel = context.channel
            // Cancelled when the handler goes (`channelInactive`, `handlerRemoved`), which ends the cycle.
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            pings = context.eventLoop.scheduleRepeatedTask(initialDelay: pingInterval, delay: pingInterval) { task in
                let handler = handler.value
                guard channel.isActive else { return task.cancel() }
                guard handler.answeredPing else {
                    let seconds = Double(pingInterval.nanoseconds) / 1e9
                    StandardStreams.printError("raudio: warning: IPC client \(handler.id) answered no ping in \(seconds) s; dropped")
                    task.cancel()
                    return channel.close(promise: nil)
                }
                handler.answeredPing = false
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: channel.allocator.buffer(string: "raudio")), promise: nil)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pings?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pings?.cancel()
        registry.remove(id)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        answeredPing = true
        if !hasSentAFrame {
            hasSentAFrame = true
            gate?.note(context.channel, .active)
        }
        guard !isClosing else { return }
        guard frame.maskKey != nil else { return fail(.protocolError, context: context) }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return fail(.protocolError, context: context) }
        switch frame.opcode {
        case .text, .binary, .continuation:
            if frame.opcode == .continuation {
                guard isInMessage else { return fail(.protocolError, context: context) }
            } else {
                guard !isInMessage else { return fail(.protocolError, context: context) }
                message.removeAll(keepingCapacity: true)
                isText = frame.opcode == .text
            }
            isInMessage = !frame.fin
            if message.count < CommandLineSplitter.maximumLineLength {
                message += frame.unmaskedData.readableBytesView.prefix(CommandLineSplitter.maximumLineLength - message.count)
            }
            guard frame.fin else { return }
            defer { message.removeAll(keepingCapacity: true) }
            if isText {
                // A message cut at the length limit may end inside a character: only what was kept is checked.
                guard let line = Self.utf8(message, allowingCutEnd: message.count >= CommandLineSplitter.maximumLineLength) else {
                    return fail(.dataInconsistentWithMessage, context: context)
                }
                if let command = IncomingCommand(parsing: line, origin: .ipcClient(id), handled: registry.commandArrived(from: id)) {
                    commands.yield(command)
                }
            } else {
                let refusal = PlayerEvent.issue(.error, code: "command-malformed",
                                                message: "a binary frame is not a command: send each command as a text frame")
                registry.send(refusal.json.serialized(), to: id)
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            break
        case .connectionClose:
            var data = frame.unmaskedData
            guard data.readableBytes != 1 else { return fail(.protocolError, context: context) }
            guard let code = data.readInteger(as: UInt16.self) else { return close(echoing: nil, context: context) }
            guard Self.isValidCloseCode(code) else { return fail(.protocolError, context: context) }
            guard Self.utf8(Array(data.readableBytesView), allowingCutEnd: false) != nil else {
                return fail(.dataInconsistentWithMessage, context: context)
            }
            close(echoing: code, context: context)
        default:
            fail(.protocolError, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Close codes a peer may send (RFC 6455 §7.4.1-7.4.2): 1000-1003, 1007-1011 and 3000-4999; 1004,
    /// 1005, 1006, 1015 and everything below 1000 are not.
    static func isValidCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }

    /// `bytes` as text when they are UTF-8; with `allowingCutEnd`, an incomplete character at the end
    /// (a message cut at the length limit) is dropped rather than refused.
    static func utf8(_ bytes: [UInt8], allowingCutEnd: Bool) -> String? {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        guard allowingCutEnd else { return nil }
        for cut in 1...3 where bytes.count > cut {
            if let text = String(validating: bytes.dropLast(cut), as: UTF8.self) { return text }
        }
        return nil
    }

    /// Ends the connection for a broken rule: a close frame with `code`, then the TCP connection.
    private func fail(_ code: WebSocketErrorCode, context: ChannelHandlerContext) {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        isClosing = true
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    private func close(echoing code: UInt16?, context: ChannelHandlerContext) {
        var data = context.channel.allocator.buffer(capacity: 2)
        if let code { data.writeInteger(code) }
        isClosing = true
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }
}
