// SPDX-License-Identifier: GPL-3.0-or-later
#if FUZZING
import Foundation
import ReadiumShared

/// A `Container` of byte strings held in memory, so an EPUB can be assembled around one fuzzed file.
struct InMemoryContainer: Container {
    let sourceURL = URL(fileURLWithPath: "/fuzz/book.epub")
    let files: [String: Data]
    var entries: [String] { files.keys.sorted() }

    func resource(at href: String) throws(ResourceError) -> any Resource {
        let path = try Href(href).path
        guard let data = files[path] else {
            throw ResourceError(.notFound, href: href, message: "is not in the in-memory container")
        }
        return DataResource(href: path, data: data)
    }
}

#endif
