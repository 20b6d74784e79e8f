// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
#if canImport(ReadiumLCP)
import ArgumentParser
import Foundation
import RAudioPlayer
import ReadiumLCP
import ReadiumShared
import ReadiumStreamer

/// `raudio lcp`: Readium LCP licences.
struct LCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lcp",
        abstract: "Readium LCP licences: show one (its user, provider, rights, status, dates and hint), acquire its publication, renew or return a loan.",
        discussion: """
            raudio opens LCP-protected books of the basic profile (.lcpa, LCP EPUBs, an .lcpl whose publication \
            is beside it) with their passphrase: --passphrase-file FILE, one it remembers (only its SHA-256 is \
            stored, in the listening state), or a prompt on the terminal without echo. Licences of other \
            profiles need a certified client that an app supplies (docs/LCP.md). The status document, \
            registration, renewal and return go to the servers a licence names; RAUDIO_LCP_OFFLINE=1 turns every \
            such fetch off (docs/LCP.md).
            """,
        subcommands: [LCPInfoCommand.self, LCPAcquireCommand.self, LCPRenewCommand.self, LCPReturnCommand.self]
    )
}

/// `raudio lcp info BOOK|LICENCE`: the licence of a protected book, or a licence file.
struct LCPInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an LCP licence as a JSON line or, with --human, readable lines.",
        discussion: """
            PATH is an LCP-protected book (.lcpa, .lcpdf, an LCP EPUB) or a licence (.lcpl). The JSON object has \
            "id", "provider", "profile", "issued", "updated", "hint", "hintLink", "unlocked", "user" (its \
            encrypted fields in clear once the passphrase is known), "rights" ("print", "copy", "start", "end"; \
            null when unlimited), "status" ("status", "message", "canRenew", "canReturn") and "publication". \
            Without a passphrase the licence is shown locked; a wrong one is an error (lcp-passphrase-wrong, 65). \
            A licence that is refused (a bad signature, out of its dates, a profile that needs a certified client) \
            is shown with "refused" ("code", "message"), and raudio then exits with that error's status.
            """
    )

    @Argument(help: "An LCP-protected book or an LCP licence file (.lcpl).")
    var path: String

    @Flag(help: "Print readable lines instead of a JSON line.")
    var human = false

    @OptionGroup(title: "LCP-protected books") var lcp: LCPOptions

    func run() throws {
        try lcp.apply()
        let license = try Self.license(at: path)
        let summary = LicenseSummary(license: license)
        do {
            if human {
                try StandardStreams.printLine(TerminalText.printable(summary.lines.joined(separator: "\n"), keepingLineBreaks: true))
            } else {
                try StandardStreams.printLine(summary.json.serialized())
            }
        } catch {
            // The reader of stdout went away.
        }
        // A licence that cannot be opened is shown, then reported as the error it is.
        if let refusal = license.refusal { throw CommandFailure(refusal.openingError(path: path)) }
    }

    /// The licence of the book or licence file at `path`: opened with the passphrase when one is known,
    /// else locked.
    static func license(at path: String) throws(CommandFailure) -> LCPLicense {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure.notFound("\(path): does not exist")
        }
        let protection = LCPSetup.contentProtection(opensLocked: true)
        let asset: ContentProtectedAsset?
        do throws(OpeningError) {
            if let data = try? FileResource(url: url).read(maximumSize: 1024 * 1024),
                let object = try? JSONParser.parse(data).objectValue, object["encryption"] != nil, object["provider"] != nil
            {
                asset = try licenseOnly(data: data, url: url, protection: protection)
            } else {
                let container: any Container
                do {
                    container = try ZIPContainer(url: url)
                } catch {
                    throw OpeningError(.badData, path: url.path, message: "is neither an LCP-protected package nor a licence (.lcpl)")
                }
                asset = try protection.open(container: container, path: url.path)
            }
        } catch {
            throw CommandFailure(error)
        }
        guard let license = asset?.rights as? LCPLicense else {
            throw CommandFailure(.badData, code: "lcp-license-invalid", message: "\(path): is not protected by LCP (it holds no licence)")
        }
        return license
    }

    /// A licence file alone: opened with its passphrase when one is known (its publication need not be here).
    private static func licenseOnly(data: Data, url: URL, protection: LCPContentProtection) throws(OpeningError) -> ContentProtectedAsset {
        let refusal: LCPError?
        do {
            let license = try protection.service.retrieveLicense(data: data, source: url.path, authentication: protection.authentication)
            return ContentProtectedAsset(container: EmptyContainer(sourceURL: url), isUnlocked: true, rights: license)
        } catch {
            switch error {
            case .missingPassphrase, .licenseInteractionNotAvailable: refusal = nil
            case .licenseIntegrity, .licenseStatus, .licenseProfileNotSupported: refusal = error
            default: throw error.openingError(path: url.path)
            }
        }
        do {
            var license = try protection.service.inspectLicense(data: data, source: url.path)
            license.refusal = refusal
            return ContentProtectedAsset(container: EmptyContainer(sourceURL: url), isUnlocked: false, rights: license)
        } catch {
            throw error.openingError(path: url.path)
        }
    }
}

/// No resources: what a licence file alone holds.
private struct EmptyContainer: Container {
    let sourceURL: URL
    var entries: [String] { [] }
    func resource(at href: String) throws(ResourceError) -> any Resource {
        throw ResourceError(.notFound, href: href, message: "is not in a licence file")
    }
}
#endif
