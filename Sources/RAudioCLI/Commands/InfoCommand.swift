// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer
#if canImport(ReadiumLCP)
import ReadiumLCP
#endif
import ReadiumShared
import ReadiumStreamer

/// `raudio info PATH`: the publication as Readium Web Publication Manifest JSON, or a summary for people.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a publication's manifest (RWPM JSON) or, with --human, a readable summary.",
        discussion: """
            PATH may be a Readium audiobook (.audiobook, .lcpa), a manifest.json, a folder or ZIP of audio files \
            (.zab), a single audio file, or an EPUB. Warnings about the publication go to stderr.
            """
    )

    @Argument(help: "The publication to inspect.")
    var path: String

    @Flag(help: "Print a readable summary instead of JSON.")
    var human = false

    @Option(help: ArgumentHelp("Also write the publication's cover picture to FILE (the resource with rel \"cover\", such as an M4B's embedded cover).", valueName: "FILE"))
    var cover: String?

    @Flag(help: "Also show what the libraries log (FFmpeg's warnings and errors) on stderr.")
    var verbose = false

    @OptionGroup(title: "LCP-protected books") var lcp: LCPOptions

    func run() throws {
        if verbose { VerboseLog.enable() }
        try lcp.apply()
        // Durations the manifest leaves out are probed, so that the summary and --from percentages know them.
        // An LCP book whose passphrase is not known is shown locked: its metadata and its licence's rights.
        let publication = PublicationAudioDetails.completed(try PublicationLoading.open(path: path, opensLocked: true))
        PublicationLoading.reportWarnings(of: publication)
        if let cover { try Self.writeCover(of: publication, to: cover, path: path) }
        #if canImport(ReadiumLCP)
        let license = (publication.contentProtectionRights as? LCPLicense).map(LicenseSummary.init)
        let refusal = license?.license.refusal.map { "it cannot be played: \($0)" }
        #else
        let license: LicenseSummaryStub? = nil
        let refusal: String? = nil
        #endif
        if let protection = publication.protection {
            let reason = refusal ?? (license != nil ? "give its passphrase (--passphrase-file FILE) to play it" : "it cannot be played")
            StandardStreams.printError("note: \(path) is protected by \(protection.name); its metadata is shown but \(reason)")
        }
        let narration = NarrationSummary(publication: publication)
        let licenseLines = license.map { [""] + $0.lines } ?? []
        var json = narration.annotating(publication.manifest).json
        if let license, case .object(var object) = json {
            // The licence as a `license` link whose properties say it as `raudio lcp info` prints it (a link's
            // properties are the manifest's place for extensions).
            let link: JSONObject = [
                "rel": "license",
                "href": publication.container.entries.contains("META-INF/license.lcpl") ? "META-INF/license.lcpl" : "license.lcpl", "type": "application/vnd.readium.lcp.license.v1.0+json",
                "properties": ["lcp": license.json],
            ]
            object["links"] = .array((object["links"]?.arrayValue ?? []) + [.object(link)])
            json = .object(object)
        }
        let text = human
            ? TerminalText.printable(([PublicationSummary(publication: publication, trackFormats: Self.trackFormats(of: publication)).text] + licenseLines + narration.lines)
                .joined(separator: "\n"), keepingLineBreaks: true)
            : json.serialized(.pretty)
        do {
            try StandardStreams.printLine(text)
        } catch {
            // The reader of stdout went away: nothing more to say.
        }
    }

    /// The codec, rate and channels of each audio track of the reading order (up to 200 tracks).
    static func trackFormats(of publication: Publication) -> [String?] {
        guard publication.protection == nil else { return [] }
        return publication.readingOrder.prefix(200).map { link -> String? in
            guard link.type?.hasPrefix("audio/") ?? true, !(link.type?.contains("html") ?? false),
                  let resource = try? publication.container.resource(at: link.hrefWithoutFragment) else { return nil }
            return AudioTrackDescription.describe(resource)
        }
    }

    /// Writes the bytes of the publication's cover to `file`; fails (65) when it has none.
    static func writeCover(of publication: Publication, to file: String, path: String) throws(CommandFailure) {
        guard let link = publication.manifest.coverLink else {
            throw CommandFailure.badData("\(path): has no cover picture")
        }
        let data: Data
        do {
            data = try publication.container.resource(at: link.href).read(range: nil)
        } catch {
            throw CommandFailure(.badData, code: "bad-data", message: "\(path): its cover \(link.href) cannot be read: \(error.message)", cause: error)
        }
        do {
            try data.write(to: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure(.cannotCreateOutput, code: "output-unwritable", message: "\(file): cannot be written: \(error.localizedDescription)")
        }
    }
}

#if !canImport(ReadiumLCP)
/// What stands for `LicenseSummary` in CI's ThreadSanitizer build, which has no ReadiumLCP: never made.
private struct LicenseSummaryStub {
    var lines: [String] { [] }
    var json: JSONValue { .null }
}
#endif
