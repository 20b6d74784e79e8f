// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
#if canImport(ReadiumLCP)
import ArgumentParser
import Foundation
import RAudioPlayer
import RAudioState
import ReadiumLCP
import ReadiumShared
import ZIPFoundation

/// `raudio lcp acquire LICENCE.lcpl [OUT]`: downloads the publication of a licence, checked and with the licence in it.
struct LCPAcquireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acquire",
        abstract: "Download the publication of an LCP licence (.lcpl), with the licence put into it.",
        discussion: """
            Downloads the licence's publication link, checks its length and SHA-256 hash against the licence, puts \
            the licence into it (license.lcpl at the root of an audiobook or PDF package, META-INF/license.lcpl in an \
            EPUB) and writes it to OUT (default: the licence id and the extension of the publication's type, in the \
            current folder). The file appears only once complete: an interrupted or failed download leaves nothing. \
            On a terminal a progress bar goes to stderr; otherwise JSON-lines events go to stdout ("progress", then \
            "acquired" or "error"). RAUDIO_LCP_OFFLINE=1 turns every LCP network fetch off.
            """
    )

    @Argument(help: "The licence document (.lcpl).")
    var license: String

    @Argument(help: "Where to write the publication (default: LICENCE-ID.EXT in the current folder).")
    var output: String?

    func run() throws {
        let events = LCPCommandEvents()
        do {
            let (data, document) = try LCPLicenseFile.read(license)
            let destination = URL(fileURLWithPath: output ?? LCPAcquisition.defaultFileName(for: document))
            let bar = isatty(STDERR_FILENO) == 1
            let acquisition = LCPAcquisition(client: RemoteAccessSetup.client)
            // SIGINT, SIGTERM, SIGHUP stop the download, and the partial file is removed (runMain lets them through here).
            let stop = Locked(false)
            let watcher = Task.detached {
                for await _ in SignalWatcher.shared.signals {
                    stop.withLock { $0 = true }
                    break
                }
            }
            defer { watcher.cancel() }
            try acquisition.acquire(document, licenseData: data, to: destination, source: license, shouldStop: { stop.withLock { $0 } }) { progress in
                if bar {
                    StandardStreams.printError("\r" + LCPCommandEvents.bar(progress, columns: TerminalMode.size(of: STDERR_FILENO).columns) + "\u{1B}[K", newline: false)
                }
                events.emit("progress", [("received", .integer(Int64(progress.received)))]
                    + (progress.total.map { [("total", .integer(Int64($0)))] } ?? [])
                    + (progress.fraction.map { [("progression", .number($0))] } ?? []))
            }
            if bar { StandardStreams.printError("\r\u{1B}[K", newline: false) }
            let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
            events.emit("acquired", [("path", .string(destination.path)), ("license", .string(document.id)), ("bytes", .integer(Int64(size)))])
            if isatty(STDOUT_FILENO) == 1 { try? StandardStreams.printLine("acquired \(destination.path) (\(size) bytes)") }
        } catch {
            throw events.fail(error)
        }
    }
}

/// `raudio lcp renew BOOK [--end DATE]`: extends an LCP loan through its status document's `renew` link.
struct LCPRenewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "renew",
        abstract: "Renew the loan of an LCP book or licence (its status document's renew link).",
        discussion: """
            BOOK is an LCP package (.lcpa, .lcpdf, LCP EPUB) or a licence (.lcpl). The renewed licence is written \
            back into it (a copy renamed over it: nothing is lost if writing fails). When the provider renews on a \
            web page, its address is printed instead. Exit 65 (lcp-renew-failed) when the server refuses, with its \
            reason; 69 (lcp-network) when the server cannot be reached.
            """
    )

    @Argument(help: "The LCP book or licence.")
    var path: String

    @Option(help: ArgumentHelp("The end of the loan asked for, as an RFC 3339 date (2030-01-31T12:00:00Z); the server's default without it.", valueName: "DATE"))
    var end: String?

    @Option(help: ArgumentHelp("The listening-state directory (where this device's LCP id is kept).", valueName: "directory"))
    var stateDir: String?

    func run() throws {
        let events = LCPCommandEvents()
        do {
            var endDate: Date?
            if let end {
                guard let date = LCPDate.parse(end) else {
                    throw CommandFailure.usage("--end \(end): not an RFC 3339 date such as 2030-01-31T12:00:00Z")
                }
                endDate = date
            }
            let (_, document) = try LCPLicenseFile.read(path)
            let service = LCPNetworkSetup.statusService(stateDirectory: stateDir.map { URL(fileURLWithPath: $0) })
            switch try service.renew(document, source: path, end: endDate) {
            case .webPage(let url):
                events.emit("renew-page", [("url", .string(url))])
                if isatty(STDOUT_FILENO) == 1 { try? StandardStreams.printLine("\(path): the loan is renewed on a web page: \(url)") }
            case .renewed(let status, let newer):
                var newEnd: Date?
                if let newer {
                    try LCPLicenseFile.write(newer, to: path)
                    newEnd = (try? LicenseDocument(data: newer, source: path))?.rights.end
                }
                events.emit("renewed", [("status", .string(status.status.rawValue))] + (newEnd.map { [("end", .string(LCPDate.format($0)))] } ?? []))
                if isatty(STDOUT_FILENO) == 1 {
                    try? StandardStreams.printLine("\(path): renewed" + (newEnd.map { " until \(LCPDate.format($0))" } ?? ""))
                }
            }
        } catch {
            throw events.fail(error)
        }
    }
}

/// `raudio lcp return BOOK`: gives an LCP loan back through its status document's `return` link.
struct LCPReturnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "return",
        abstract: "Return the loan of an LCP book or licence (its status document's return link).",
        discussion: """
            BOOK is an LCP package (.lcpa, .lcpdf, LCP EPUB) or a licence (.lcpl); the licence the server sends back \
            (now ended) is written into it. Exit 65 (lcp-return-failed) when the server refuses, with its reason; \
            69 (lcp-network) when the server cannot be reached.
            """
    )

    @Argument(help: "The LCP book or licence.")
    var path: String

    @Option(help: ArgumentHelp("The listening-state directory (where this device's LCP id is kept).", valueName: "directory"))
    var stateDir: String?

    func run() throws {
        let events = LCPCommandEvents()
        do {
            let (_, document) = try LCPLicenseFile.read(path)
            let service = LCPNetworkSetup.statusService(stateDirectory: stateDir.map { URL(fileURLWithPath: $0) })
            let (status, newer) = try service.returnLoan(document, source: path)
            if let newer { try LCPLicenseFile.write(newer, to: path) }
            events.emit("returned", [("status", .string(status.status.rawValue))])
            if isatty(STDOUT_FILENO) == 1 { try? StandardStreams.printLine("\(path): returned (status \(status.status.rawValue))") }
        } catch {
            throw events.fail(error)
        }
    }
}

/// Reads and writes the licence of a path: a `.lcpl` file itself, or the licence inside a ZIP package.
enum LCPLicenseFile {
    static func read(_ path: String) throws -> (Data, LicenseDocument) {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.notFound("\(path): does not exist") }
        var data: Data
        if let archive = try? Archive(url: url, accessMode: .read) {
            guard let entry = archive["license.lcpl"] ?? archive["META-INF/license.lcpl"] else {
                throw CommandFailure.badData("\(path): holds no LCP licence (license.lcpl or META-INF/license.lcpl)")
            }
            data = Data()
            guard entry.uncompressedSize < 1 << 20 else { throw CommandFailure.badData("\(path): its licence is larger than 1 MB") }
            _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
        } else {
            data = try Data(contentsOf: url)
        }
        return (data, try LicenseDocument(data: data, source: path))
    }

    /// Writes `license` over the licence of `path`: the file itself for a `.lcpl` (a copy renamed over it), else
    /// into the package (`LicenseWriteBack`).
    static func write(_ license: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        // A licence the server sends is used only if it is one and, for the basic profile, its signature holds.
        let document = try LicenseDocument(data: license, source: path)
        if document.encryption.profile == LicenseDocument.basicProfile {
            do {
                try BasicProfileLCPClient().verifySignature(of: document)
            } catch {
                throw LCPError.licenseIntegrity(error).openingError(path: path)
            }
        }
        if (try? Archive(url: url, accessMode: .read)) != nil {
            try LicenseWriteBack.write(license, into: url)
        } else {
            try license.write(to: url, options: .atomic)
        }
    }
}

/// JSON-lines events of the `lcp` commands when stdout is not a terminal, and their `error` event.
struct LCPCommandEvents {
    let printsJSON = isatty(STDOUT_FILENO) != 1

    func emit(_ type: String, _ pairs: [(String, JSONValue)]) {
        guard printsJSON else { return }
        try? StandardStreams.printLine(JSONValue.object(JSONObject([("v", .integer(1)), ("type", .string(type))] + pairs)).serialized())
    }

    /// The failure for `error` (its `error` event written first).
    func fail(_ error: any Error) -> CommandFailure {
        let failure: CommandFailure
        switch error {
        case let failure_ as CommandFailure: failure = failure_
        case let error as any ReportableError: failure = CommandFailure(error)
        default: failure = CommandFailure(.badData, code: "bad-data", message: "\(error)", cause: error)
        }
        emit("error", [("code", .string(failure.code)), ("message", .string(failure.message)), ("fatal", .bool(true)),
                       ("exitStatus", .integer(Int64(failure.status.rawValue)))])
        return failure
    }

    /// `[#####-----]  42%  1.1 MB of 2.6 MB`.
    static func bar(_ progress: LCPAcquisition.Progress, columns: Int) -> String {
        let megabytes = { (bytes: UInt64) in String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        guard let fraction = progress.fraction, let total = progress.total else { return "downloading: \(megabytes(progress.received))" }
        let text = String(format: "%3.0f%%  %@ of %@", fraction * 100, megabytes(progress.received), megabytes(total))
        let width = max(10, min(40, columns - text.count - 4))
        let filled = Int(Double(width) * fraction)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]  " + text
    }
}
#endif
