// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// The exit codes of every raudio command: one table, documented in the README ("Exit codes").
///
/// They follow BSD `sysexits.h`, so scripts can tell a bad book from a missing file from a missing
/// audio server.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// A bad option or value, an unknown voice.
    case usage = 64
    /// An unreadable, corrupt or unsupported publication; LCP-protected; a refused href.
    case badData = 65
    /// The input does not exist.
    case inputNotFound = 66
    /// A service raudio needs is unavailable: no audio server could be reached (or it went away), or a
    /// remote publication's server is unreachable, refuses it or keeps failing (`serviceUnavailable`).
    case audioServerUnavailable = 69
    /// A bug in raudio.
    case internalError = 70
    /// The output file cannot be created.
    case cannotCreateOutput = 73
    /// Writing the output failed (disk full).
    case outputIOError = 74
}

extension ExitStatus {
    /// 69 for a remote publication that cannot be fetched: the same `sysexits.h` code (EX_UNAVAILABLE).
    public static let serviceUnavailable = ExitStatus.audioServerUnavailable
}

/// An error that ends a command: a message for stderr (and an `error` event) and its exit status.
///
/// A module's error becomes one with `CommandFailure(error)`: its status from `ExitStatus(for:)`, its code
/// word and its description, and the error kept as the cause.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    /// A stable word for the `error` event (`publication-not-found`, `lcp-protected`, ...).
    public var code: String
    /// What went wrong, naming the file or href.
    public var message: String
    /// The error this failure reports, when it comes from one.
    public var cause: (any Error)?

    public init(_ status: ExitStatus, code: String, message: String, cause: (any Error)? = nil) {
        (self.status, self.code, self.message, self.cause) = (status, code, message, cause)
    }

    /// The failure that reports `error`: the status `ExitStatus(for:)` gives it, its code word (or `code`),
    /// its description (or `message`).
    public init(_ error: some ReportableError, code: String? = nil, message: String? = nil) {
        self.init(ExitStatus(for: error), code: code ?? error.codeName, message: message ?? error.description, cause: error)
    }

    public var description: String { message }

    public static func usage(_ message: String) -> CommandFailure { CommandFailure(.usage, code: "usage", message: message) }
    public static func badData(_ message: String) -> CommandFailure { CommandFailure(.badData, code: "bad-data", message: message) }
    public static func notFound(_ message: String) -> CommandFailure { CommandFailure(.inputNotFound, code: "not-found", message: message) }

    /// The failure for a publication that could not be opened: its code word prefixed `publication-`; an LCP
    /// licence's refusal keeps its own word (`lcp-passphrase-wrong`, ...), as docs/events.md lists it.
    public init(_ error: OpeningError) {
        let code = error.code.rawValue.hasPrefix("lcp-") ? error.code.rawValue : "publication-\(error.code.rawValue)"
        self.init(error, code: code)
    }

    /// The failure for a publication protected by a DRM raudio cannot decrypt.
    public static func protected(_ publication: Publication, path: String) -> CommandFailure {
        let protection = publication.protection ?? .unknown
        // raudio decrypts no DRM; LCP is the one it may learn (an open standard), so only it says "yet".
        let can = protection == .lcp ? "cannot decrypt yet" : "does not decrypt"
        return CommandFailure(
            .badData, code: protection == .lcp ? "lcp-protected" : "drm-protected",
            message: "\(path): is protected by \(protection.name), which raudio \(can); it cannot be played"
        )
    }
}
