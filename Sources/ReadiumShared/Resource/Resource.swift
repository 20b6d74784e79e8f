// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// Whether the bytes come over the network (`RemoteResource`): a reader should then fetch only what
    /// it needs, never scan the whole resource ahead of time.
    var isRemote: Bool { get }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`; returns how many were read, fewer
    /// only at the end of the resource (0 at or past it).
    ///
    /// A fast path for decoders' buffered readers: no `Data` is allocated per read. The default reads
    /// through `read(range:)` and copies; files and STORED ZIP entries `pread(2)` straight into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int

    /// Opens the resource for many reads by one reader on one thread (a decoder's buffered reader):
    /// files and STORED ZIP entries keep their descriptor open until the session is released, instead
    /// of opening the file for every read. The default reads through `read(into:at:)`.
    func openReadSession() throws(ResourceError) -> any ResourceReadSession
}

extension Resource {
    public var isRemote: Bool { false }

    public func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        PassThroughReadSession(resource: self)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        guard buffer.count > 0, offset <= UInt64.max - UInt64(buffer.count) else { return 0 }
        let data = try read(range: offset..<(offset + UInt64(buffer.count)))
        return data.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress, let destination = buffer.baseAddress else { return 0 }
            let count = min(bytes.count, buffer.count)
            destination.copyMemory(from: source, byteCount: count)
            return count
        }
    }

    /// Reads the whole resource.
    public func read() throws(ResourceError) -> Data {
        try read(range: nil)
    }

    /// Reads the whole resource when it holds at most `maximumSize` bytes (a document to parse).
    ///
    /// Its `length()` is checked first, so a ZIP entry declaring more is refused with `.tooLarge`
    /// before a byte is inflated; the inflate itself stops as soon as it passes the declared size (a
    /// ZIP bomb that lies about its size), so no more than `maximumSize` bytes are ever held.
    public func read(maximumSize: Int) throws(ResourceError) -> Data {
        let length = try length()
        guard length <= UInt64(maximumSize) else {
            throw ResourceError(.tooLarge, href: href, message: "is \(length) bytes, more than the \(maximumSize) allowed for a document read whole")
        }
        let data = try read(range: 0..<length)
        guard data.count <= maximumSize else {
            throw ResourceError(.tooLarge, href: href, message: "holds more than the \(maximumSize) bytes allowed for a document read whole")
        }
        return data
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
