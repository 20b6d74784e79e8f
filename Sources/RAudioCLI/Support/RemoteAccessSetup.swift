import Foundation
import RAudioEngine
import ReadiumShared

/// The HTTP client of a raudio process and where its retry warnings go.
///
/// Commands open publications with `RemoteAccessSetup.access`; a warning goes to stderr until a
/// command routes it elsewhere (`raudio play` makes it a `warning` event too).
enum RemoteAccessSetup {
    /// One client for the process, so its kept-alive connections serve every track.
    static let client = CurlHTTPClient()
    static let warnings = RemoteWarningRelay()

    /// `RAUDIO_RETRY_DELAYS` (seconds, comma-separated) replaces the backoff, for tests.
    static var access: RemoteAccess {
        var access = RemoteAccess(client: client, onWarning: { warnings.deliver($0) })
        if let text = ProcessInfo.processInfo.environment["RAUDIO_RETRY_DELAYS"] {
            access.retryDelays = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 >= 0 }
        }
        return access
    }
}

/// Passes remote warnings to the handler a command set; called on read-ahead and decoder threads.
final class RemoteWarningRelay: Sendable {
    private let handler = Locked<(@Sendable (RemoteWarning) -> Void)?>(nil)

    /// Routes every later warning to `handler` (on the thread that met the failure).
    func route(to handler: @escaping @Sendable (RemoteWarning) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    func deliver(_ warning: RemoteWarning) {
        if let handler = handler.withLock({ $0 }) {
            handler(warning)
        } else {
            StandardStreams.printError("raudio: warning: \(warning)")
        }
    }
}
