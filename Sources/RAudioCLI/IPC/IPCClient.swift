// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
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
/// Fairness: at most `maximumWritesInFlight` events are handed to the channel at once; the others wait
/// in the client's own queue, where a newer `state` (or `position`) replaces an older one not sent yet.
/// However many events other clients make the server emit (ten clients flooding `status`, each answered by
/// a `state` to everyone), a client that reads at its own pace owes a bounded number of them and is not
/// dropped; it gets the latest state rather than every intermediate one.
///
/// Lives on the server's event loop only (every property is read and written there, write completions
/// included), hence `@unchecked Sendable`.
final class IPCClient: @unchecked Sendable {
    enum Framing { case jsonLines, webSocket }

    let id: Int
    let channel: any Channel
    let framing: Framing
    /// Bytes of the events owed: written to the channel and not yet taken by the kernel, or waiting.
    private(set) var pendingBytes = 0
    /// Events owed: written to the channel and not yet taken by the kernel, or waiting.
    var pendingEvents: Int { writesInFlight + waiting.count }
    private var writesInFlight = 0
    /// Events not handed to the channel yet, oldest first (see `maximumWritesInFlight`).
    private var waiting: [IPCMessage] = []
    private var isDraining = false
    /// The bytes the kernel held for the client at the last look (`lookAtKernelBacklog`).
    private var kernelBacklog: UInt32?
    /// Commands handed to the session and not handled yet.
    private(set) var pendingCommands = 0
    private(set) var isDropped = false
    /// The number of the last broadcast event written to it (see `IPCClientRegistry.broadcast`).
    var delivered = 0
    /// Whether the registry is writing it the events it was not written yet (`IPCClientRegistry.catchUp`).
    var isCatchingUp = false
    /// Called when the client has taken most of what was written and nothing waits: the registry writes it
    /// the events broadcast since, rather than when its turn of the broadcast comes (a client that reads
    /// at its pace is never left with nothing to read while events are owed to it).
    var wantsMore: (() -> Void)?
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
    /// Events handed to the channel at once; more wait in the client's queue, where they can be coalesced.
    static let maximumWritesInFlight = 64
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
        if let kind = message.replaces, let older = waiting.lastIndex(where: { $0.replaces == kind }) {
            pendingBytes -= waiting.remove(at: older).payload.readableBytes
        }
        if pendingEvents >= Self.maximumPendingEvents || pendingBytes >= Self.maximumPendingBytes { return false }
        if pendingEvents == 0 { lastProgress = .now() }
        pendingBytes += message.payload.readableBytes
        if writesInFlight < Self.maximumWritesInFlight && waiting.isEmpty {
            write(message)
        } else {
            waiting.append(message)
        }
        updateReading()
        return true
    }

    /// Hands the events waiting to the channel while fewer than `maximumWritesInFlight` are there.
    private func drainWaiting() {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while !isDropped, writesInFlight < Self.maximumWritesInFlight, !waiting.isEmpty {
            write(waiting.removeFirst())
        }
    }

    private func write(_ message: IPCMessage) {
        let size = message.payload.readableBytes
        writesInFlight += 1
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
            self.writesInFlight -= 1
            self.lastProgress = .now()
            self.drainWaiting()
            if self.waiting.isEmpty && self.writesInFlight <= Self.maximumWritesInFlight / 2 { self.wantsMore?() }
            self.updateReading()
            self.closeIfAnswered()
        }
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

    /// Counts what a slow reader reads as progress. Once its kernel buffer is full, the kernel lets raudio
    /// write to it again only after it has read most of it (three quarters of a unix socket's 208 KiB):
    /// a client reading a few KB a second would take no write for longer than `stallTimeout`. The bytes the
    /// kernel still holds for it (`SO_MEMINFO`: a unix socket's `wmem_alloc`, TCP's `wmem_queued`) going
    /// down is progress too. Called on the event loop, once a second by the registry.
    func lookAtKernelBacklog() {
        guard pendingEvents > 0, !isDropped, NIODeadline.now() - lastProgress > .seconds(1),
              let provider = channel as? any SocketOptionProvider else { return }
        let info: EventLoopFuture<SocketMemoryInfo> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET),
                                                                                     name: SocketOptionName(SocketMemoryInfo.option))
        info.whenSuccess { info in
            let backlog = max(info.wmemAlloc, info.wmemQueued)
            if let previous = self.kernelBacklog, backlog < previous { self.lastProgress = .now() }
            self.kernelBacklog = backlog
        }
    }

    /// Closes the connection (once).
    func drop() {
        guard !isDropped else { return }
        isDropped = true
        waiting.removeAll()
        wantsMore = nil
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

/// `getsockopt(SOL_SOCKET, SO_MEMINFO)`: the kernel's memory figures of a socket (`SK_MEMINFO_*`, in this order).
struct SocketMemoryInfo: Sendable {
    /// `SO_MEMINFO` (55 on Linux, every architecture: asm-generic/socket.h).
    static let option: Int32 = 55
    var rmemAlloc: UInt32 = 0, receiveBuffer: UInt32 = 0, wmemAlloc: UInt32 = 0, sendBuffer: UInt32 = 0, forwardAlloc: UInt32 = 0
    var wmemQueued: UInt32 = 0, optionMemory: UInt32 = 0, backlog: UInt32 = 0, drops: UInt32 = 0
}

/// One event as the clients are sent it, encoded once in one buffer: the JSON text (a WebSocket frame's
/// payload), the same with its newline (a JSON line) and with a text frame's header (a WebSocket frame,
/// unmasked as a server sends it).
struct IPCMessage {
    /// The events of which only the newest matters to a client behind: one not sent yet is replaced by
    /// the next of its kind (`IPCClient.send`).
    enum Replaceable { case state, position }

    let payload: ByteBuffer
    let line: ByteBuffer
    let frame: ByteBuffer
    let replaces: Replaceable?

    init(_ text: String, allocator: ByteBufferAllocator) {
        self.init(json: text.utf8, allocator: allocator)
    }

    /// A message from JSON text already encoded as UTF-8 (`EventWriter` encodes each event once).
    init(json: some Collection<UInt8>, replaces: Replaceable? = nil, allocator: ByteBufferAllocator) {
        self.replaces = replaces
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
