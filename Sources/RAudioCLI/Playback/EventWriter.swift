import ReadiumShared

/// Prints events as JSON lines on stdout, and the human part of problems on stderr.
///
/// When stdout is closed (the reading app went away), `write` throws `StandardStreams.ReaderGone`
/// and the session stops quietly with exit 0.
struct EventWriter {
    func write(_ event: JSONValue) throws(StandardStreams.ReaderGone) {
        try StandardStreams.printLine(event.serialized())
    }

    /// A `warning` or `error` event, also logged on stderr.
    func report(
        _ type: String, code: String, message: String, fatal: Bool, href: String? = nil, locator: Locator? = nil,
        id: CommandID? = nil
    ) throws(StandardStreams.ReaderGone) {
        StandardStreams.printError("raudio: \(type): \(message)")
        try write(PlayerEvent.issue(type, code: code, message: message, fatal: fatal, href: href, locator: locator, id: id))
    }
}
