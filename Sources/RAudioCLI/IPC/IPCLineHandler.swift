// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import RAudioPlayer

/// Reads a unix-socket client's commands, one JSON or words line each, and hands them to the session.
///
/// Runs on the server's event loop. Lines longer than 64 KiB are cut there and still delivered, so
/// the parser answers `command-too-long` (as for stdin, see `CommandLineReader`).
final class IPCLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: IPCClientRegistry
    private let commands: AsyncStream<IncomingCommand>.Continuation
    private var id = 0
    private var line: [UInt8] = []
    private var isDiscarding = false

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
        let buffer = unwrapInboundIn(data)
        var rest = buffer.readableBytesView[...]
        // Whole runs up to each newline are copied at once: a 10 MiB line costs a scan, not a loop per byte.
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let part = rest[..<(newline ?? rest.endIndex)]
            if !isDiscarding {
                line += part.prefix(CommandLineReader.maximumLineLength - line.count)
                if line.count >= CommandLineReader.maximumLineLength { isDiscarding = true }
            }
            guard let newline else { return }
            // Parsed here, where it comes in: the session gets a typed command (or the refusal to answer).
            if let command = IncomingCommand(parsing: String(decoding: line, as: UTF8.self), origin: .ipcClient(id),
                                             handled: registry.commandArrived(from: id)) {
                commands.yield(command)
            }
            line.removeAll(keepingCapacity: true)
            isDiscarding = false
            rest = rest[rest.index(after: newline)...]
        }
    }

    /// The client half-closed: a last line without its newline is a command too (as on stdin); every
    /// command is answered, then the connection closes.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            if !line.isEmpty, let command = IncomingCommand(parsing: String(decoding: line, as: UTF8.self), origin: .ipcClient(id),
                                                            handled: registry.commandArrived(from: id)) {
                commands.yield(command)
            }
            line.removeAll()
            registry.inputClosed(id)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
