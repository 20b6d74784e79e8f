// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Opens an EPUB for a benchmark with `PublicationOpener`, insisting that it is one.
enum EPUBOpening {
    /// - Parameter checksContentDocuments: as `raudio speak` opens (false) or as the other commands do.
    static func open(_ path: String, checksContentDocuments: Bool = true) throws(BenchmarkError) -> Publication {
        let publication: Publication
        do {
            publication = try PublicationOpener(checksContentDocuments: checksContentDocuments).open(url: URL(fileURLWithPath: path))
        } catch {
            throw .failed("\(error)")
        }
        guard publication.mediaType.matches(.epub) else {
            throw .failed("\(path): is not an EPUB (\(publication.mediaType))")
        }
        return publication
    }
}
