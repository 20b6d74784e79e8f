// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// Everything a listening session reacts to, merged into one stream so one loop handles it in order.
public enum SessionInput: Sendable {
    case navigator(SessionEvent)
    case navigatorFinished
    /// A command from a front end: stdin, a key of the terminal player, the desktop (MPRIS), an IPC client.
    case command(IncomingCommand)
    /// A request to stop (a signal): the session stops and ends.
    case stopRequested
    /// The grace period after a stop request ran out without a final state event.
    case stopTimeout
    /// The sleep timer's tick (four a second while it is set).
    case sleepTick
    /// The table of contents with its text entries' `#id`s placed (`ChapterMap.placingFragments(of:)`).
    case chaptersPlaced(ChapterMap)
}

/// A command as the session takes it: parsed by the front end it came through (or refused there as its
/// sender wrote it), with where its answers go.
public struct IncomingCommand: Sendable {
    public var parsed: Result<PlayerCommandRequest, CommandParseError>
    /// Where its `ack` or `error` goes.
    public var origin: CommandOrigin = .everyone
    /// Called once the session has handled the command (frees its place in the sender's flow control).
    public var handled: @Sendable () -> Void = {}

    public init(_ request: PlayerCommandRequest, origin: CommandOrigin = .everyone, handled: @escaping @Sendable () -> Void = {}) {
        parsed = .success(request)
        self.origin = origin
        self.handled = handled
    }

    public init(_ command: PlayerCommand) {
        self.init(PlayerCommandRequest(command: command))
    }

    /// A line in the words or the JSON stdin takes; nil for a blank line (`handled` is then called at once).
    public init?(parsing line: String, origin: CommandOrigin = .everyone, handled: @escaping @Sendable () -> Void = {}) {
        switch PlayerCommandParser.parse(line: line) {
        case .success(nil):
            handled()
            return nil
        case .success(let request?):
            parsed = .success(request)
        case .failure(let error):
            parsed = .failure(error)
        }
        self.origin = origin
        self.handled = handled
    }
}

extension SessionInput {
    /// Merges the navigator's events, the front ends' commands and the session's own timers into one stream.
    public static func merged(
        events: AsyncStream<SessionEvent>, commands: [AsyncStream<IncomingCommand>], timers: AsyncStream<SessionInput>
    ) -> AsyncStream<SessionInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionInput.self)
        let tasks = [
            Task {
                for await event in events { continuation.yield(.navigator(event)) }
                continuation.yield(.navigatorFinished)
            },
            Task { for await input in timers { continuation.yield(input) } },
        ] + commands.map { source in
            Task { for await command in source { continuation.yield(.command(command)) } }
        }
        continuation.onTermination = { _ in tasks.forEach { $0.cancel() } }
        return stream
    }
}
