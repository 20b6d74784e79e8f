// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Opens a corpus EPUB with `EPUBParser` and attaches the content service, as `raudio text` does.
public enum TestEPUBOpener {
    public static func open(_ url: URL, onResourceParsed: (@Sendable (String) -> Void)? = nil) throws -> Publication {
        let publication = try EPUBParser(checksContentDocuments: false).parse(container: ZIPContainer(url: url))
        return EPUBContentService.attach(to: publication, onResourceParsed: onResourceParsed)
    }
}
