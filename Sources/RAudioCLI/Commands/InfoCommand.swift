import ArgumentParser
import Foundation
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

    func run() throws {
        let publication = try PublicationLoading.open(path: path)
        PublicationLoading.reportWarnings(of: publication)
        if let protection = publication.protection {
            let scheme = protection == .lcp ? "LCP" : "an unknown DRM"
            StandardStreams.printError("note: \(path) is protected by \(scheme); its metadata is shown but it cannot be played")
        }
        let narration = NarrationSummary(publication: publication)
        let text = human
            ? ([PublicationSummary(publication: publication).text] + narration.lines).joined(separator: "\n")
            : narration.annotating(publication.manifest).json.serialized(.pretty)
        do {
            try StandardStreams.printLine(text)
        } catch {
            // The reader of stdout went away: nothing more to say.
        }
    }
}
