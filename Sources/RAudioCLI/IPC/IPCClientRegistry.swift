// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import RAudioPlayer
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
    /// The `utterance` event of the sentence being read (a spoken sentence, a narrated `par`, a media element),
    /// as broadcast; nil once playback stops or ends. A client connecting mid-sentence is sent it after its
    /// `hello`: a read-along page shows the sentence and the Media Overlays classes at once, not at the next one.
    private var currentSentence: [UInt8]?
    private var isClosed = false
    private var stallCheck: RepeatedTask?
    private let allocator = ByteBufferAllocator()
    /// The number of the last event broadcast; each client knows the last it was written (`IPCClient.delivered`).
    private var sequence = 0
    /// The events broadcast and not yet written to every client, oldest first.
    private var undelivered: [(sequence: Int, message: IPCMessage)] = []
    private var isSweeping = false

    /// A broadcast is written to the clients in turns of the event loop this long at most (a handful of
    /// clients in a debug build); other clients' commands are read, and their answers written, between
    /// turns. Shorter turns answer sooner on a busy machine and cost a timer each.
    static let turnLength = TimeAmount.microseconds(250)
    static let pauseBetweenTurns = TimeAmount.microseconds(100)

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
        // The hello tells what the events so far told: the client starts after them.
        client.delivered = sequence
        client.wantsMore = { [weak self, weak client] in
            guard let self, let client, self.clients[client.id] === client else { return }
            self.catchUp(client)
        }
        clients[id] = client
        channel.closeFuture.whenComplete { _ in self.clients[id] = nil }
        if helloMessage == nil { helloMessage = IPCMessage(hello.event.json.serialized(), allocator: allocator) }
        _ = client.send(helloMessage!)
        if let currentSentence { _ = client.send(IPCMessage(json: currentSentence, allocator: allocator)) }
        return id
    }

    /// How many clients are registered (for the tests and `status`-like checks).
    var count: Int {
        eventLoop.preconditionInEventLoop()
        return clients.count
    }

    /// Client `id` half-closed: it is closed once answered (`IPCClient.inputClosed`).
    func inputClosed(_ id: Int) {
        eventLoop.preconditionInEventLoop()
        clients[id]?.inputClosed()
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
    /// Clients with a command being handled get it at once: it may be their answer (`status` is answered by
    /// a `state` event to everyone). The others get it in turns of `turnLength`, the event loop free
    /// between turns: a thousand idle clients cost the one that asks a turn, not a thousand writes.
    /// Every client is written the events in order (`catchUp`), however the turns interleave.
    func broadcast(_ event: PlayerEvent, json: [UInt8]) {
        eventLoop.preconditionInEventLoop()
        hello.apply(event)
        helloMessage = nil
        switch event {
        case .utterance, .narration, .media: currentSentence = json
        case .opened: currentSentence = nil
        case .state(let state, _, _, _) where [.stopped, .ended, .failed, .idle].contains(state): currentSentence = nil
        default: break
        }
        guard !clients.isEmpty else { return }
        sequence += 1
        let replaceable: IPCMessage.Replaceable? = switch event {
        case .state: .state
        case .position: .position
        default: nil
        }
        undelivered.append((sequence, IPCMessage(json: json, replaces: replaceable, allocator: allocator)))
        for client in clients.values where client.pendingCommands > 0 { catchUp(client) }
        if !isSweeping { sweep(Array(clients.values), from: 0, upTo: sequence) }
    }

    /// Writes to `client` the broadcast events it was not written yet.
    private func catchUp(_ client: IPCClient) {
        // A write that completes at once may ask for more (`wantsMore`) from inside this loop: it goes on.
        guard client.delivered < sequence, !client.isCatchingUp else { return }
        client.isCatchingUp = true
        defer { client.isCatchingUp = false }
        // `undelivered` holds consecutive numbers: the first not written to this client is found, not searched.
        var index = max(0, client.delivered + 1 - (undelivered.first?.sequence ?? sequence + 1))
        while index < undelivered.count {
            let (number, message) = undelivered[index]
            guard client.send(message) else { return dropStalled(client) }
            client.delivered = number
            index += 1
        }
        client.delivered = sequence
    }

    /// Catches up `order[start...]`, a turn at a time. Once every client has had every event up to
    /// `last`, those are forgotten; a sweep starts again for events broadcast meanwhile.
    private func sweep(_ order: [IPCClient], from start: Int, upTo last: Int) {
        isSweeping = true
        let turnEnd = NIODeadline.now() + Self.turnLength
        var end = start
        while end < order.count {
            let client = order[end]
            end += 1
            if clients[client.id] === client { catchUp(client) }
            if NIODeadline.now() >= turnEnd { break }
        }
        if end < order.count {
            // Not `execute`: NIO runs every task queued, those queued meanwhile included, before it reads its
            // sockets again. A task for a moment later lets the clients' commands be read in between.
            let next = end
            eventLoop.scheduleTask(in: Self.pauseBetweenTurns) { self.sweep(order, from: next, upTo: last) }
            return
        }
        undelivered.removeAll { $0.sequence <= last }
        if undelivered.isEmpty || isClosed {
            isSweeping = false
        } else {
            eventLoop.scheduleTask(in: Self.pauseBetweenTurns) { self.sweep(Array(self.clients.values), from: 0, upTo: self.sequence) }
        }
    }

    /// An answer (or a refusal) for one client only.
    func send(_ text: String, to id: Int) {
        eventLoop.preconditionInEventLoop()
        guard let client = clients[id] else { return }
        catchUp(client)
        if !client.send(IPCMessage(text, allocator: allocator)) { dropStalled(client) }
    }

    /// Closes every connection; no client is accepted after.
    func closeAll() {
        eventLoop.preconditionInEventLoop()
        isClosed = true
        stallCheck?.cancel()
        for client in clients.values { client.drop() }
        clients.removeAll()
        undelivered.removeAll()
    }

    private func dropStalledClients() {
        for client in clients.values { client.lookAtKernelBacklog() }
        let now = NIODeadline.now()
        for client in clients.values where client.isStalled(at: now) { dropStalled(client) }
    }

    private func dropStalled(_ client: IPCClient) {
        StandardStreams.printError("raudio: warning: IPC client \(client.id) stopped reading (\(client.pendingEvents) events waiting); dropped")
        clients[client.id] = nil
        client.drop()
    }
}
