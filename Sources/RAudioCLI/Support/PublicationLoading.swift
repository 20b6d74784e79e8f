import Foundation
import ReadiumShared
import ReadiumStreamer

/// Opens the publication a command was given, turning failures into `CommandFailure`s.
enum PublicationLoading {
    static func open(path: String) throws(CommandFailure) -> Publication {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        do {
            return try PublicationOpener().open(url: url)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Writes each warning of `publication` to stderr, prefixed with `warning:`.
    static func reportWarnings(of publication: Publication) {
        for warning in publication.warnings {
            StandardStreams.printError("warning: \(warning)")
        }
    }
}
