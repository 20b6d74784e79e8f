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
    private var isReadingPaused = false
    /// When the client last took an event, or began to owe one.
    private var lastProgress = NIODeadline.now()

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
        case .webSocket: written = channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: message.payload))
        }
        written.whenComplete { _ in
            self.pendingBytes -= size
            self.pendingEvents -= 1
            self.lastProgress = .now()
            self.updateReading()
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

/// One event as the clients are sent it, encoded once: the JSON text (a WebSocket frame's payload) and
/// the same with its newline (a JSON line).
struct IPCMessage {
    let payload: ByteBuffer
    let line: ByteBuffer

    init(_ text: String, allocator: ByteBufferAllocator) {
        var line = allocator.buffer(capacity: text.utf8.count + 1)
        line.writeString(text)
        payload = line.getSlice(at: line.readerIndex, length: line.readableBytes)!
        line.writeInteger(UInt8(ascii: "\n"))
        self.line = line
    }

    /// A message from JSON text already encoded as UTF-8 (`EventWriter` encodes each event once).
    init(json: [UInt8], allocator: ByteBufferAllocator) {
        var line = allocator.buffer(capacity: json.count + 1)
        line.writeBytes(json)
        payload = line.getSlice(at: line.readerIndex, length: line.readableBytes)!
        line.writeInteger(UInt8(ascii: "\n"))
        self.line = line
    }
}
