import NIOCore
import NIOWebSocket

/// One connected client of the IPC server: its channel, how to frame what it is sent, and how much
/// of that it has not taken yet.
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
    private(set) var isDropped = false

    /// A client that has not taken this much is dropped (it stopped reading).
    static let maximumPendingEvents = 1_000
    static let maximumPendingBytes = 1 << 20

    init(id: Int, channel: any Channel, framing: Framing) {
        self.id = id
        self.channel = channel
        self.framing = framing
    }

    /// Writes one event (a serialized JSON object); returns false when the client is too far behind
    /// and must be dropped.
    func send(_ text: String) -> Bool {
        guard !isDropped else { return true }
        if pendingEvents >= Self.maximumPendingEvents || pendingBytes >= Self.maximumPendingBytes { return false }
        var buffer = channel.allocator.buffer(capacity: text.utf8.count + 1)
        buffer.writeString(text)
        let size = buffer.readableBytes
        pendingBytes += size
        pendingEvents += 1
        let written: EventLoopFuture<Void>
        switch framing {
        case .jsonLines:
            buffer.writeInteger(UInt8(ascii: "\n"))
            written = channel.writeAndFlush(buffer)
        case .webSocket:
            written = channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer))
        }
        written.whenComplete { _ in
            self.pendingBytes -= size
            self.pendingEvents -= 1
        }
        return true
    }

    /// Closes the connection (once).
    func drop() {
        guard !isDropped else { return }
        isDropped = true
        channel.close(promise: nil)
    }
}
