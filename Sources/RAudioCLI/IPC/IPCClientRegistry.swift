// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import ReadiumShared

/// The IPC server's clients and what a new one is told: confined to the server's event loop.
///
/// `@unchecked Sendable` because it crosses into the loop's closures; every method asserts it runs
/// on `eventLoop`, the only place its state is touched.
final class IPCClientRegistry: @unchecked Sendable {
    let eventLoop: any EventLoop
    private var clients: [Int: IPCClient] = [:]
    private var nextID = 1
    private var hello = IPCHelloState()
    /// `hello` encoded, until the next event changes it: clients connecting together share it.
    private var helloMessage: IPCMessage?
    private var isClosed = false
    private var stallCheck: RepeatedTask?
    private let allocator = ByteBufferAllocator()

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        stallCheck = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { [weak self] _ in
            self?.dropStalledClients()
        }
    }

    /// Registers a connection and sends it `hello`; returns its number (its `CommandOrigin`).
    ///
    /// The client is removed when its channel closes, whatever closed it: the `hello` written here may
    /// fail at once (a client that reset its connection), closing the channel before the handler
    /// that called `add` knows its number.
    func add(_ channel: any Channel, framing: IPCClient.Framing) -> Int {
        eventLoop.preconditionInEventLoop()
        let id = nextID
        nextID += 1
        guard !isClosed else {
            channel.close(promise: nil)
            return id
        }
        let client = IPCClient(id: id, channel: channel, framing: framing)
        clients[id] = client
        channel.closeFuture.whenComplete { _ in self.clients[id] = nil }
        if helloMessage == nil { helloMessage = IPCMessage(hello.event.serialized(), allocator: allocator) }
        _ = client.send(helloMessage!)
        return id
    }

    /// How many clients are registered (for the tests and `status`-like checks).
    var count: Int {
        eventLoop.preconditionInEventLoop()
        return clients.count
    }

    func remove(_ id: Int) {
        eventLoop.preconditionInEventLoop()
        clients[id] = nil
    }

    /// A command from client `id` goes to the session, which calls `handled` (on any thread) once
    /// it is done with it: the client is read no further while too many of its commands wait.
    func commandArrived(from id: Int) -> @Sendable () -> Void {
        eventLoop.preconditionInEventLoop()
        clients[id]?.commandArrived()
        let eventLoop = eventLoop
        return { eventLoop.execute { self.clients[id]?.commandHandled() } }
    }

    /// An event for everyone (and for the next `hello`).
    ///
    /// Clients with a command being handled get it first: it may be their answer (`status` is answered by a
    /// `state` event to everyone), which must not wait behind the writes to a thousand idle clients.
    func broadcast(_ event: JSONValue, json: [UInt8]) {
        eventLoop.preconditionInEventLoop()
        hello.apply(event)
        helloMessage = nil
        guard !clients.isEmpty else { return }
        let message = IPCMessage(json: json, allocator: allocator)
        let everyone = clients.values
        for client in everyone where client.pendingCommands > 0 && !client.send(message) { dropStalled(client) }
        for client in everyone where client.pendingCommands == 0 && !client.send(message) { dropStalled(client) }
    }

    /// An answer (or a refusal) for one client only.
    func send(_ text: String, to id: Int) {
        eventLoop.preconditionInEventLoop()
        guard let client = clients[id] else { return }
        if !client.send(IPCMessage(text, allocator: allocator)) { dropStalled(client) }
    }

    /// Closes every connection; no client is accepted after.
    func closeAll() {
        eventLoop.preconditionInEventLoop()
        isClosed = true
        stallCheck?.cancel()
        for client in clients.values { client.drop() }
        clients.removeAll()
    }

    private func dropStalledClients() {
        let now = NIODeadline.now()
        for client in clients.values where client.isStalled(at: now) { dropStalled(client) }
    }

    private func dropStalled(_ client: IPCClient) {
        StandardStreams.printError("raudio: warning: IPC client \(client.id) stopped reading (\(client.pendingEvents) events waiting); dropped")
        clients[client.id] = nil
        client.drop()
    }
}
