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
        return InMemoryResource(href: path, data: data)
    }
}

/// One file of an `InMemoryContainer`.
struct InMemoryResource: Resource {
    let href: String
    let data: Data
    var isRandomAccessCheap: Bool { true }

    func length() throws(ResourceError) -> UInt64 { UInt64(data.count) }

    func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        let whole = 0..<UInt64(data.count)
        let wanted = (range ?? whole).clamped(to: whole)
        return data.subdata(in: Int(wanted.lowerBound)..<Int(wanted.upperBound))
    }
}
#endif
