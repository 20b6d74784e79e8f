// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import RAudioPlayer

/// Reads a unix-socket client's commands, one JSON or words line each, and hands them to the session.
///
/// Runs on the server's event loop; the lines are split by SwiftNIO's line decoder (`CommandLineSplitter`,
/// as stdin's are): one longer than 64 KiB is cut there and still delivered, so the parser answers
/// `command-too-long`.
final class IPCLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: IPCClientRegistry
    private let commands: AsyncStream<IncomingCommand>.Continuation
    private var id = 0
    private var lines = CommandLineSplitter()

    init(registry: IPCClientRegistry, commands: AsyncStream<IncomingCommand>.Continuation) {
        self.registry = registry
        self.commands = commands
    }

    func channelActive(context: ChannelHandlerContext) {
        id = registry.add(context.channel, framing: .jsonLines)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.remove(id)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lines.split(unwrapInboundIn(data), into: deliver)
    }

    /// Parsed here, where it comes in: the session gets a typed command (or the refusal to answer).
    private func deliver(_ line: String) {
        if let command = IncomingCommand(parsing: line, origin: .ipcClient(id), handled: registry.commandArrived(from: id)) {
            commands.yield(command)
        }
    }

    /// The client half-closed: a last line without its newline is a command too (as on stdin); every
    /// command is answered, then the connection closes.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            lines.finish(into: deliver)
            registry.inputClosed(id)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
