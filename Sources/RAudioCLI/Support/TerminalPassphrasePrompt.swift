// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
#if canImport(ReadiumLCP)
import Foundation
import ReadiumLCP

/// Asks an LCP passphrase on the controlling terminal (`/dev/tty`) with echo off, showing the licence's hint.
///
/// Only when standard input is a terminal: a process fed by a pipe or run by a program is never stopped by a
/// question nobody sees (it gets `lcp-passphrase-missing` and should use `--passphrase-file`). The passphrase is
/// returned to be hashed at once; it is never written anywhere.
struct TerminalPassphrasePrompt: LCPAuthenticating {
    func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var question = reason == .invalidPassphrase ? "That passphrase is wrong.\n" : ""
        question += "This book is protected by LCP (\(license.provider)).\n"
        if !license.hint.isEmpty { question += "Hint: \(license.hint)\n" }
        if let link = license.hintLink { question += "Help: \(link)\n" }
        question += "Passphrase: "
        write(tty, question, question.utf8.count)
        var saved = termios()
        let canHide = tcgetattr(tty, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            hidden.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(tty, TCSAFLUSH, &hidden)
        }
        defer { if canHide { tcsetattr(tty, TCSAFLUSH, &saved) } }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
            if bytes.count > 4096 { break }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // Nothing typed is no answer (cancelled), not an empty passphrase.
        guard !bytes.isEmpty else { return nil }
        let passphrase = String(decoding: bytes, as: UTF8.self)
        for index in bytes.indices { bytes[index] = 0 }
        return passphrase
    }
}

/// The first answer of several ways to get a passphrase: the file, then the terminal.
struct ChainedAuthentication: LCPAuthenticating {
    let sources: [any LCPAuthenticating]

    func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason) -> String? {
        for source in sources {
            if let passphrase = source.retrievePassphrase(for: license, reason: reason) { return passphrase }
        }
        return nil
    }
}
#endif
