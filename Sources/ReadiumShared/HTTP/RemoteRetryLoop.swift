// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Runs one remote operation again after transient failures, with `RemoteAccess.retryDelays` as
/// exponential backoff, telling `onWarning` each time.
struct RemoteRetryLoop {
    /// What one attempt achieved.
    enum Attempt {
        case done
        /// A transient failure (`reason`, for the warning); `resumeAt` is the byte the next attempt starts
        /// from, and `progressed` whether this attempt got any byte (which resets the count of attempts).
        case retry(reason: String, resumeAt: UInt64?, progressed: Bool, unreachable: Bool = false)
    }

    let access: RemoteAccess
    let url: String

    /// Calls `attempt` until it is done; throws the last failure once the retries are spent (`.remoteUnreachable`
    /// when no connection could be made, else `.remoteUnavailable`), or at once when `attempt` throws. Returns false when `shouldStop` ended it while waiting.
    func run(shouldStop: () -> Bool, _ attempt: () throws(ResourceError) -> Attempt) throws(ResourceError) -> Bool {
        var failures = 0
        while true {
            if access.cancellation.isCancelled { throw access.cancellation.error(href: url) }
            if shouldStop() { return false }
            switch try attempt() {
            case .done:
                return true
            case .retry(let reason, let resumeAt, let progressed, let unreachable):
                if progressed { failures = 0 }
                guard failures < access.retryDelays.count else {
                    let tries = failures + 1
                    throw ResourceError(unreachable ? .remoteUnreachable : .remoteUnavailable, href: url, message: "\(reason) (gave up after \(tries) attempt\(tries == 1 ? "" : "s"))")
                }
                let delay = access.retryDelays[failures]
                failures += 1
                let from = resumeAt.map { " from byte \($0)" } ?? ""
                access.onWarning(RemoteWarning(
                    code: "remote-retry", url: url,
                    message: "\(reason); retrying\(from) in \(Self.format(delay)) s (retry \(failures) of \(access.retryDelays.count))"
                ))
                if !Self.sleep(delay, shouldStop: { shouldStop() || access.cancellation.isCancelled }) {
                    if access.cancellation.isCancelled { throw access.cancellation.error(href: url) }
                    return false
                }
            }
        }
    }

    /// Sleeps `seconds` in short slices, polling `shouldStop`; false when it said stop.
    static func sleep(_ seconds: Double, shouldStop: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if shouldStop() { return false }
            Thread.sleep(forTimeInterval: min(0.05, max(0, deadline.timeIntervalSinceNow)))
        }
        return !shouldStop()
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.2g", seconds)
    }
}
