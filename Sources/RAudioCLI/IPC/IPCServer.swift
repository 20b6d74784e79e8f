// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import RAudioPlayer
import ReadiumShared

/// Speaks the protocol of docs/events.md to other processes: over unix sockets (JSON lines) and
/// WebSockets (one event or command per text frame), beside stdin and stdout.
///
/// One thread of its own (a NIO event loop group of one) accepts clients, reads their
/// commands and writes events; the session loop only hands it events (`receive`, `answer`), never
/// waiting. Commands come out of `commands`, with the client to answer.
final class IPCServer: AnswerRecipient, EncodedEventObserver, Sendable {
    let commands: AsyncStream<IncomingCommand>
    private let continuation: AsyncStream<IncomingCommand>.Continuation
    private let group: MultiThreadedEventLoopGroup
    private let registry: IPCClientRegistry
    private let listeners: [any Channel]
    /// Unix socket files to remove at the end.
    private let socketPaths: [String]
    /// What each listener's address turned out to be (a port 0 replaced by the one picked).
    let boundAddresses: [IPCAddress]
    /// With a read-along site: the page's URL (`http://127.0.0.1:PORT/`).
    let pageURL: String?

    /// Binds every address (blocking until bound: call before playback starts), and with `page` one
    /// more WebSocket on 127.0.0.1 (port 0 picks one) that also serves the read-along site over HTTP.
    /// Throws `IPCError` when an address cannot be listened on; nothing is left open then.
    init(addresses: [IPCAddress], token: String?, page: (port: Int, site: ReadAlongSite)? = nil,
         limits: IPCLimits = IPCLimits()) throws(IPCError) {
        let (commands, continuation) = AsyncStream.makeStream(of: IncomingCommand.self, bufferingPolicy: .unbounded)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let registry = IPCClientRegistry(eventLoop: group.next())
        (self.commands, self.continuation, self.group, self.registry) = (commands, continuation, group, registry)
        var listeners: [any Channel] = []
        var socketPaths: [String] = []
        var bound: [IPCAddress] = []
        var pageURL: String?
        var all = addresses.map { ($0, nil as ReadAlongSite?) }
        if let page { all.append((.webSocket(host: "127.0.0.1", port: page.port), page.site)) }
        do {
            for (address, site) in all {
                switch address {
                case .unix(let path):
                    let gate = IPCConnectionGate(maximum: limits.maximumConnections)
                    try IPCSocketFile.prepare(path)
                    let channel = try IPCSocketFile.withPrivateMode {
                        try Self.lineBootstrap(group: group, registry: registry, commands: continuation, gate: gate)
                            .bind(unixDomainSocketPath: path).wait()
                    }
                    chmod(path, 0o600)
                    listeners.append(channel)
                    socketPaths.append(path)
                    bound.append(address)
                case .webSocket(let host, let port):
                    let admission = IPCAdmission(token: token, requiresLoopbackHost: address.isLoopback)
                    let gate = IPCConnectionGate(maximum: limits.maximumConnections)
                    let channel = try Self.webSocketBootstrap(group: group, registry: registry, commands: continuation,
                                                              admission: admission, site: site, gate: gate, limits: limits)
                        .bind(host: host, port: port).wait()
                    let actual = channel.localAddress?.port ?? port
                    admission.port = actual
                    listeners.append(channel)
                    bound.append(.webSocket(host: host, port: actual))
                    if site != nil { pageURL = "http://\(host):\(actual)/" }
                }
            }
        } catch let error as IPCError {
            Self.close(listeners, paths: socketPaths, group: group)
            throw error
        } catch {
            Self.close(listeners, paths: socketPaths, group: group)
            let option = listeners.count < addresses.count ? "--ipc \(addresses[listeners.count])" : "--web on 127.0.0.1:\(page?.port ?? 0)"
            throw IPCError(message: "\(option): cannot listen: \(error)")
        }
        self.pageURL = pageURL
        self.listeners = listeners
        self.socketPaths = socketPaths
        self.boundAddresses = bound
    }

    /// Called on the session loop's task: hands the event to the event loop and returns.
    /// Called on the session loop's task with the bytes stdout gets too: no second serialization.
    func receive(_ event: PlayerEvent, json: [UInt8]) {
        let registry = registry
        registry.eventLoop.execute { registry.broadcast(event, json: json) }
    }

    /// Called on the session loop's task: hands the answer to the event loop and returns.
    func answer(_ event: PlayerEvent, to origin: CommandOrigin) {
        guard case .ipcClient(let id) = origin else { return }
        let text = event.json.serialized()
        let registry = registry
        registry.eventLoop.execute { registry.send(text, to: id) }
    }

    /// How many clients are registered now; waits for the event loop (for tests).
    func clientCount() -> Int {
        let registry = registry
        return (try? registry.eventLoop.submit { registry.count }.wait()) ?? 0
    }

    /// Closes the listeners and clients, removes the socket files and stops the thread.
    func finish() {
        continuation.finish()
        let registry = registry
        try? registry.eventLoop.submit { registry.closeAll() }.wait()
        Self.close(listeners, paths: socketPaths, group: group)
    }

    private static func close(_ listeners: [any Channel], paths: [String], group: MultiThreadedEventLoopGroup) {
        for listener in listeners { try? listener.close().wait() }
        for path in paths { unlink(path) }
        try? group.syncShutdownGracefully()
    }

    private static func lineBootstrap(group: MultiThreadedEventLoopGroup, registry: IPCClientRegistry,
                                      commands: AsyncStream<IncomingCommand>.Continuation, gate: IPCConnectionGate) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .smallReads()
            // A client that half-closes (`socat` at the end of its input) is still answered: see IPCClient.inputClosed.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                guard gate.admit(channel, as: .active) else { return channel.eventLoop.makeFailedFuture(IPCConnectionRefused()) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IPCLineHandler(registry: registry, commands: commands))
                }
            }
    }

    /// The handlers of a WebSocket/HTTP connection: HTTP with the upgrade to `IPCWebSocketHandler` for a
    /// request `admission` lets through with a valid key, else `IPCHTTPHandler` (the page, refusals); each
    /// tells `gate` what the connection has shown (a whole request, an upgrade, a frame). Called on the
    /// channel's event loop; the fuzz harness builds its connections with it too.
    static func configureWebSocketPipeline(
        of channel: any Channel, registry: IPCClientRegistry, commands: AsyncStream<IncomingCommand>.Continuation,
        admission: IPCAdmission, site: ReadAlongSite?, limits: IPCLimits, gate: IPCConnectionGate? = nil
    ) throws {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 20,
            shouldUpgrade: { channel, head in
                let accepted = admission.refusal(of: head) == nil && IPCWebSocketKey.isValid(head.headers["Sec-WebSocket-Key"])
                return channel.eventLoop.makeSucceededFuture(accepted ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    gate?.note(channel, .silent)
                    try channel.pipeline.syncOperations.addHandler(
                        IPCWebSocketHandler(registry: registry, commands: commands, gate: gate, pingInterval: limits.pingInterval))
                }
            })
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.removeHandler(name: IPCHTTPHandler.name, promise: nil)
            }))
        try channel.pipeline.syncOperations.addHandler(IPCHTTPHandler(admission: admission, site: site, limits: limits, gate: gate), name: IPCHTTPHandler.name)
    }

    private static func webSocketBootstrap(group: MultiThreadedEventLoopGroup, registry: IPCClientRegistry,
                                           commands: AsyncStream<IncomingCommand>.Continuation, admission: IPCAdmission,
                                           site: ReadAlongSite?, gate: IPCConnectionGate, limits: IPCLimits) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .smallReads()
            .childChannelInitializer { channel in
                guard gate.admit(channel, as: .requesting) else { return channel.eventLoop.makeFailedFuture(IPCConnectionRefused()) }
                return channel.eventLoop.makeCompletedFuture {
                    try configureWebSocketPipeline(of: channel, registry: registry, commands: commands, admission: admission, site: site,
                                                   limits: limits, gate: gate)
                }
            }
    }
}

extension ServerBootstrap {
    /// Clients are read at most 4 KiB at a time, one read per wake-up: commands are small, and a
    /// paused client (see `IPCClient`) then has few commands already read past the pause.
    fileprivate func smallReads() -> ServerBootstrap {
        childChannelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 4096))
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
    }
}
