// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// Everything a streaming session reacts to, merged into one stream so one loop handles it in order.
enum SessionInput: Sendable {
    case navigator(SessionEvent)
    case navigatorFinished
    /// A line read from stdin (its slot is freed once handled: see `CommandLineReader`).
    case commandLine(String)
    /// A command from a key of the terminal player or from the desktop (MPRIS), in the words stdin takes.
    case command(String)
    /// A command from an IPC client, whose answers go back to it alone.
    case addressedCommand(AddressedCommand)
    case signal(Int32)
    /// The grace period after a stop request ran out without a final state event.
    case stopTimeout
    /// The sleep timer's tick (four a second while it is set).
    case sleepTick
    /// The table of contents with its text entries' `#id`s placed (`ChapterMap.placingFragments(of:)`).
    case chaptersPlaced(ChapterMap)
}

extension SessionInput {
    /// Merges the navigator's events, stdin lines, signals and the session's own timers into one stream.
    static func merged(
        events: AsyncStream<SessionEvent>, lines: AsyncStream<String>, signals: AsyncStream<Int32>,
        timers: AsyncStream<SessionInput>, commands: [AsyncStream<String>] = [],
        addressedCommands: [AsyncStream<AddressedCommand>] = []
    ) -> AsyncStream<SessionInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionInput.self)
        let tasks = [
            Task {
                for await event in events { continuation.yield(.navigator(event)) }
                continuation.yield(.navigatorFinished)
            },
            Task { for await line in lines { continuation.yield(.commandLine(line)) } },
            Task { for await number in signals { continuation.yield(.signal(number)) } },
            Task { for await input in timers { continuation.yield(input) } },
        ] + commands.map { source in
            Task { for await line in source { continuation.yield(.command(line)) } }
        } + addressedCommands.map { source in
            Task { for await command in source { continuation.yield(.addressedCommand(command)) } }
        }
        continuation.onTermination = { _ in tasks.forEach { $0.cancel() } }
        return stream
    }
}
