// SPDX-License-Identifier: GPL-3.0-or-later
// In debug builds (and raudio-fuzz's -DFUZZING build) only: `swift build` checks it, the security tests
// run it over fixed and generated inputs; a release build has none of it.
#if FUZZING || DEBUG
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOWebSocket
import RAudioPlayer
import ReadiumShared

/// Feeds raw bytes to the IPC server's connection handlers as a client would send them, on an
/// `EmbeddedChannel` (no socket, no thread): the `websocket` and `http` targets of raudio-fuzz.
///
/// Each input gets a fresh pipeline, as a fresh connection would; what the server answers is read and
/// dropped. A crash, a hang or unbounded memory is a finding; a refused frame or request is not.
enum IPCFuzzHarness {
    /// What the server did with an input: the bytes it answered (the first 64 KiB) and whether the
    /// connection is still open (for the tests; the fuzzer ignores it).
    struct Outcome {
        var answered: [UInt8] = []
        var isOpen = true
    }

    /// `data` as the frames of an upgraded WebSocket connection: NIO's frame decoder (1 MiB frames),
    /// then `IPCWebSocketHandler` with its client registered.
    @discardableResult
    static func webSocket(_ data: Data) -> Outcome {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let registry = IPCClientRegistry(eventLoop: loop)
        let (commands, continuation) = AsyncStream.makeStream(of: IncomingCommand.self, bufferingPolicy: .bufferingNewest(64))
        _ = commands
        do {
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
            try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
            try channel.pipeline.syncOperations.addHandler(IPCWebSocketHandler(registry: registry, commands: continuation))
        } catch {
            return Outcome(isOpen: false)
        }
        let outcome = feed(data, to: channel)
        finish(channel, registry: registry, continuation: continuation)
        return outcome
    }

    /// `data` as what arrives on a `--ipc ws://` connection: the HTTP server pipeline with the WebSocket
    /// upgrader and `IPCHTTPHandler` (admission checks, refusals), then frames if it upgrades. Also
    /// parses the input as a `Range` header and looks it up as a requested href.
    @discardableResult
    static func http(_ data: Data) -> Outcome {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let registry = IPCClientRegistry(eventLoop: loop)
        let (commands, continuation) = AsyncStream.makeStream(of: IncomingCommand.self, bufferingPolicy: .bufferingNewest(64))
        _ = commands
        let admission = IPCAdmission(token: "fuzz-token")
        admission.port = 9
        do {
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
            try IPCServer.configureWebSocketPipeline(of: channel, registry: registry, commands: continuation, admission: admission,
                                                     site: nil, limits: IPCLimits())
        } catch {
            return Outcome(isOpen: false)
        }
        let outcome = feed(data, to: channel)
        finish(channel, registry: registry, continuation: continuation)

        let text = String(decoding: data, as: UTF8.self)
        _ = HTTPByteRange(header: text, length: UInt64(data.count))
        _ = declared.link(forRequested: text)
        return outcome
    }

    /// A manifest with relative, remote and nested hrefs, for the href lookups.
    private static let declared: DeclaredResources = {
        let chapter = Link(href: "text/chapter%201.xhtml#p1", children: [Link(href: "text/../notes.xhtml")])
        let manifest = Manifest(metadata: Metadata(), readingOrder: [Link(href: "track.mp3"), Link(href: "https://example.org/b.mp3")],
                                resources: [Link(href: "cover.jpg")], tableOfContents: [chapter])
        return DeclaredResources(manifest)
    }()

    /// Writes `data` in pieces of varying size (a client's writes are split anywhere), reading out what
    /// the server answers as it goes.
    private static func feed(_ data: Data, to channel: EmbeddedChannel) -> Outcome {
        var outcome = Outcome()
        var offset = 0
        var piece = 1
        while offset < data.count, channel.isActive {
            let end = min(data.count, offset + piece)
            var buffer = channel.allocator.buffer(capacity: end - offset)
            buffer.writeBytes(data[data.startIndex + offset..<data.startIndex + end])
            do {
                try channel.writeInbound(buffer)
            } catch {
                break
            }
            collect(channel, into: &outcome)
            offset = end
            piece = piece * 3 + 1
        }
        (channel.eventLoop as? EmbeddedEventLoop)?.run()
        collect(channel, into: &outcome)
        outcome.isOpen = channel.isActive
        return outcome
    }

    private static func collect(_ channel: EmbeddedChannel, into outcome: inout Outcome) {
        while let part = try? channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part, outcome.answered.count < 65536 { outcome.answered += buffer.readableBytesView }
        }
        while let buffer = try? channel.readOutbound(as: ByteBuffer.self) {
            if outcome.answered.count < 65536 { outcome.answered += buffer.readableBytesView }
        }
    }

    private static func finish(_ channel: EmbeddedChannel, registry: IPCClientRegistry,
                               continuation: AsyncStream<IncomingCommand>.Continuation) {
        registry.closeAll()
        continuation.finish()
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }
}
#endif
