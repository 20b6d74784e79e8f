import Foundation

/// One readable file of a publication: a file on disk, a file in a folder, or an entry of a ZIP.
///
/// Every reader of publication bytes goes through this protocol, so a decoder reads a track inside a
/// ZIP exactly as it reads a file on disk, without extracting it. Implementations are safe to call
/// from any thread; calls may block on I/O, so never call them from Swift's cooperative pool in a loop.
public protocol Resource: Sendable {
    /// The href of this resource, relative to the root of its container (no leading slash).
    var href: String { get }

    /// The size in bytes, when it can be known without reading the whole resource.
    func length() throws(ResourceError) -> UInt64

    /// Reads `range` (clamped to the resource's length), or everything when `range` is nil.
    ///
    /// Reading a range of a DEFLATED ZIP entry inflates from the start of the entry up to the range.
    func read(range: Range<UInt64>?) throws(ResourceError) -> Data

    /// Whether `read(range:)` of an arbitrary range is cheap (a file, a folder entry, a STORED ZIP
    /// entry) rather than an inflate from the start (a DEFLATED ZIP entry).
    var isRandomAccessCheap: Bool { get }
}

extension Resource {
    /// Reads the whole resource.
    public func read() throws(ResourceError) -> Data {
        try read(range: nil)
    }

    /// Reads the whole resource as UTF-8 text (a UTF-8 byte order mark is dropped).
    public func readString() throws(ResourceError) -> String {
        var data = try read()
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let string = String(data: data, encoding: .utf8) else {
            throw ResourceError(.badData, href: href, message: "is not valid UTF-8 text")
        }
        return string
    }
}
