// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumOPDS.
#if canImport(ReadiumOPDS)
import Foundation
import RAudioPlayer
import ReadiumOPDS
import ReadiumShared

/// How `raudio catalog`, and `play`/`speak`/`info` given a catalog entry, reach a catalog: the process's HTTP
/// client, the catalog cache in `$XDG_CACHE_HOME/raudio/catalogs`, and the credentials.
///
/// Credentials come from `--credentials FILE` (`catalog`) or the file `RAUDIO_CATALOG_CREDENTIALS` names, else,
/// when the catalog asks to sign in and standard input is a terminal, from questions on `/dev/tty` (the
/// password without echo). They go to the catalog's own host only and are never printed, logged or cached.
struct CatalogAccess {
    static let credentialsVariable = "RAUDIO_CATALOG_CREDENTIALS"

    var fetcher: CatalogFetcher
    /// Whether the terminal may still be asked for credentials (once per command).
    private var mayAsk: Bool

    /// The access to the catalog at `url`, with the credentials of `credentialsFile` (else the environment's).
    init(catalogURL url: String, credentialsFile: String? = nil) throws(CommandFailure) {
        fetcher = CatalogFetcher(
            client: RemoteAccessSetup.client, cache: CatalogCache(folder: CatalogCache.defaultFolder()),
            credentialsHost: URL(string: url)?.host
        )
        fetcher.onWarning = { warning in StandardStreams.printError("raudio: warning: \(warning)") }
        fetcher.shouldStop = { RemoteAccessSetup.cancellation.isCancelled }
        if let file = credentialsFile ?? ProcessInfo.processInfo.environment[Self.credentialsVariable], !file.isEmpty {
            do {
                fetcher.credentials = try CatalogCredentials.read(file: URL(fileURLWithPath: (file as NSString).expandingTildeInPath))
            } catch {
                throw CommandFailure(error.code == .notFound ? .inputNotFound : .usage, code: "catalog-credentials", message: error.description)
            }
        }
        mayAsk = fetcher.credentials == nil && isatty(STDIN_FILENO) == 1
    }

    /// The feed at `url`, relative links resolved; when the catalog asks to sign in and no credentials were
    /// given, asks them on the terminal once and tries again.
    mutating func feed(at url: String, probing: Bool = false) throws(CommandFailure) -> Feed {
        do {
            return try fetcher.feed(at: url, probing: probing)
        } catch where error.code == .catalogAuthenticationFailed && mayAsk {
            mayAsk = false
            let document = try? fetcher.authenticationDocument(at: url)
            guard let credentials = CatalogCredentialsPrompt.ask(url: url, document: document) else {
                throw CommandFailure(error)
            }
            fetcher.credentials = credentials
            do {
                return try fetcher.feed(at: url)
            } catch {
                throw CommandFailure(error)
            }
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The bytes at `url` (a licence, a loan's publication document), with the credentials when they go there.
    func fetch(_ url: String) throws(CommandFailure) -> CatalogFetcher.Fetched {
        do {
            return try fetcher.fetch(url)
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// Asks catalog credentials on the controlling terminal: a login and a password (the password without echo) for
/// HTTP Basic, or a token for a bearer-token flow, as the catalog's authentication document says.
enum CatalogCredentialsPrompt {
    static func ask(url: String, document: AuthenticationDocument?) -> CatalogCredentials? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        let authentication = document?.preferredAuthentication
        let name = document.map { $0.title.isEmpty ? url : $0.title } ?? url
        say(tty, "\(TerminalText.printable(name)) asks to sign in.\n")
        if authentication?.flow == .bearerToken, authentication?.type != AuthenticationDocument.palaceBasicToken {
            guard let token = read(tty, prompt: "Token: ", hidden: true) else { return nil }
            return .bearer(token: token)
        }
        guard let login = read(tty, prompt: "\(TerminalText.printable(authentication?.loginLabel ?? "Login")): ", hidden: false),
              let password = read(tty, prompt: "\(TerminalText.printable(authentication?.passwordLabel ?? "Password")): ", hidden: true) else { return nil }
        return .basic(login: login, password: password)
    }

    private static func say(_ tty: Int32, _ text: String) {
        _ = text.withCString { write(tty, $0, strlen($0)) }
    }

    /// One line typed on `tty`, echo off when `hidden`; nil when nothing was typed.
    private static func read(_ tty: Int32, prompt: String, hidden: Bool) -> String? {
        say(tty, prompt)
        var saved = termios()
        let canHide = hidden && tcgetattr(tty, &saved) == 0
        if canHide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(tty, TCSAFLUSH, &quiet)
        }
        defer { if canHide { tcsetattr(tty, TCSAFLUSH, &saved) } }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
            if bytes.count > 4096 { break }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { return nil }
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension CommandFailure {
    /// The failure of a catalog error: its code word and status from the one table (`ExitStatus(code:)`).
    init(_ error: OPDSError) {
        self.init(error, code: error.code.rawValue)
    }
}
#endif
