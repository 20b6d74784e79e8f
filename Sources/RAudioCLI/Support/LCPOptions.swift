// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import RAudioPlayer

/// `--passphrase-file`: the commands that open a book take it.
struct LCPOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "For an LCP-protected book (.lcpa, LCP EPUB, .lcpl): read its passphrase from FILE (the first line). Without it, raudio uses a passphrase it remembers (only its SHA-256 is stored) or asks on the terminal, without echo.",
        valueName: "FILE"))
    var passphraseFile: String?

    /// Makes these options the process's (before the book is opened).
    func apply(stateDirectory: String? = nil) throws(CommandFailure) {
        #if canImport(ReadiumLCP)
        try LCPSetup.configure(passphraseFile: passphraseFile, stateDirectory: stateDirectory)
        #endif
    }
}
