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
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    /// A stable word for the `error` event (`publication-not-found`, `lcp-protected`, ...).
    public var code: String
    /// What went wrong, naming the file or href.
    public var message: String

    public init(_ status: ExitStatus, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func usage(_ message: String) -> CommandFailure { CommandFailure(.usage, code: "usage", message: message) }
    static func badData(_ message: String) -> CommandFailure { CommandFailure(.badData, code: "bad-data", message: message) }
    static func notFound(_ message: String) -> CommandFailure { CommandFailure(.inputNotFound, code: "not-found", message: message) }

    /// The failure for a publication that could not be opened.
    public init(_ error: OpeningError) {
        let status: ExitStatus = switch error.code {
        case .notFound: .inputNotFound
        case .badData, .unsupported, .forbidden: .badData
        case .io: .badData
        case .unavailable: .serviceUnavailable
        }
        self.init(status, code: "publication-\(error.code.rawValue)", message: error.description)
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
