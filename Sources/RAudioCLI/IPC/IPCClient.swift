// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import NIOWebSocket
import RAudioPlayer

/// One connected client of the IPC server: its channel, how to frame what it is sent, how much of
/// that it has not taken yet, and how many of its commands wait to be handled.
///
/// Flow control: while the client owes many events or has many commands waiting, its connection is
/// not read, so a client that floods commands without reading their answers is slowed down by the
/// kernel rather than growing raudio's memory. A client that takes nothing for `stallTimeout`, or
/// falls `maximumPendingEvents` behind, is dropped: playback never waits for a client.
///
/// Lives on the server's event loop only (every property is read and written there, write completions
/// included), hence `@unchecked Sendable`.
final class IPCClient: @unchecked Sendable {
    enum Framing { case jsonLines, webSocket }

    let id: Int
    let channel: any Channel
    let framing: Framing
    /// Bytes and events written to the channel and not yet taken by the kernel.
    private(set) var pendingBytes = 0
    private(set) var pendingEvents = 0
    /// Commands handed to the session and not handled yet.
    private(set) var pendingCommands = 0
    private(set) var isDropped = false
    /// The number of the last broadcast event written to it (see `IPCClientRegistry.broadcast`).
    var delivered = 0
    private var isReadingPaused = false
    /// The client closed its sending side (a half-close, as `socat` does at the end of its input): it is
    /// closed once every command it sent is answered and the answers are written.
    private var closesWhenAnswered = false
    /// When the client last took an event, or began to owe one.
    private var lastProgress = NIODeadline.now()
    /// A WebSocket client's frame encoder: events are written past it as frames encoded once for every
    /// client (`IPCMessage.frame`), not encoded again per client.
    private let frameEncoder: ChannelHandlerContext?

    /// A client that has not taken this much is dropped (it stopped reading).
    static let maximumPendingEvents = 1_000
    static let maximumPendingBytes = 1 << 20
    /// A client that owes events and takes none of them for this long is dropped.
    static let stallTimeout = TimeAmount.seconds(5)
    /// Reading the client's commands pauses at either figure and resumes below half of both.
    static let readingPauseEvents = 256
    static let readingPauseCommands = 64

    init(id: Int, channel: any Channel, framing: Framing) {
        self.id = id
        self.channel = channel
        self.framing = framing
        frameEncoder = framing == .webSocket ? try? channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) : nil
    }

    /// Writes one event; returns false when the client is too far behind and must be dropped.
    /// The message's bytes are shared with every other client it goes to (no copy per client).
    func send(_ message: IPCMessage) -> Bool {
        guard !isDropped else { return true }
        if pendingEvents >= Self.maximumPendingEvents || pendingBytes >= Self.maximumPendingBytes { return false }
        let size = message.payload.readableBytes
        if pendingEvents == 0 { lastProgress = .now() }
        pendingBytes += size
        pendingEvents += 1
        let written: EventLoopFuture<Void>
        switch framing {
        case .jsonLines: written = channel.writeAndFlush(message.line)
        case .webSocket:
            // Written from the encoder's context, the frame goes to the handlers before it (the socket), already encoded.
            if let frameEncoder {
                written = frameEncoder.writeAndFlush(NIOAny(message.frame))
            } else {
                written = channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: message.payload))
            }
        }
        written.whenComplete { _ in
            self.pendingBytes -= size
            self.pendingEvents -= 1
            self.lastProgress = .now()
            self.updateReading()
            self.closeIfAnswered()
        }
        updateReading()
        return true
    }

    /// A command from this client was handed to the session.
    func commandArrived() {
        pendingCommands += 1
        updateReading()
    }

    /// The session has handled one of this client's commands.
    func commandHandled() {
        pendingCommands -= 1
        updateReading()
        closeIfAnswered()
    }

    /// The client will send nothing more (it half-closed): answer what it sent, then close.
    func inputClosed() {
        closesWhenAnswered = true
        closeIfAnswered()
    }

    private func closeIfAnswered() {
        guard closesWhenAnswered, pendingCommands == 0, pendingEvents == 0 else { return }
        drop()
    }

    /// Whether the client owes events and has taken none of them for `stallTimeout`.
    func isStalled(at now: NIODeadline) -> Bool {
        pendingEvents > 0 && now - lastProgress > Self.stallTimeout
    }

    /// Closes the connection (once).
    func drop() {
        guard !isDropped else { return }
        isDropped = true
        channel.close(promise: nil)
    }

    private func updateReading() {
        guard !isDropped else { return }
        if !isReadingPaused {
            guard pendingCommands >= Self.readingPauseCommands || pendingEvents >= Self.readingPauseEvents else { return }
            isReadingPaused = true
            channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        } else {
            guard pendingCommands <= Self.readingPauseCommands / 2, pendingEvents <= Self.readingPauseEvents / 2 else { return }
            isReadingPaused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        }
    }
}

/// One event as the clients are sent it, encoded once in one buffer: the JSON text (a WebSocket frame's
/// payload), the same with its newline (a JSON line) and with a text frame's header (a WebSocket frame,
/// unmasked as a server sends it).
struct IPCMessage {
    let payload: ByteBuffer
    let line: ByteBuffer
    let frame: ByteBuffer

    init(_ text: String, allocator: ByteBufferAllocator) {
        self.init(json: text.utf8, allocator: allocator)
    }

    /// A message from JSON text already encoded as UTF-8 (`EventWriter` encodes each event once).
    init(json: some Collection<UInt8>, allocator: ByteBufferAllocator) {
        let length = json.count
        var buffer = allocator.buffer(capacity: 10 + length + 1)
        // RFC 6455 §5.2: FIN and the text opcode, then the length in 7 bits, or 126 and 16 bits, or 127 and 64 bits.
        buffer.writeInteger(UInt8(0x81))
        if length < 126 {
            buffer.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
        let headerLength = buffer.readableBytes
        buffer.writeBytes(json)
        buffer.writeInteger(UInt8(ascii: "\n"))
        frame = buffer.getSlice(at: buffer.readerIndex, length: headerLength + length)!
        line = buffer.getSlice(at: buffer.readerIndex + headerLength, length: length + 1)!
        payload = buffer.getSlice(at: buffer.readerIndex + headerLength, length: length)!
    }
}
