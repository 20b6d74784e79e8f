// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A file on disk as a `Resource`, for tests only (the real one comes from the containers work).
public struct TestFileResource: Resource {
    public let url: URL
    public let href: String
    public var isRandomAccessCheap: Bool { true }

    public init(url: URL, href: String? = nil) {
        self.url = url
        self.href = href ?? url.lastPathComponent
    }

    public func length() throws(ResourceError) -> UInt64 {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        } catch {
            throw ResourceError(.notFound, href: href, message: "cannot stat \(url.path)")
        }
    }

    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            guard let range else { return try handle.readToEnd() ?? Data() }
            try handle.seek(toOffset: range.lowerBound)
            return try handle.read(upToCount: Int(range.upperBound - range.lowerBound)) ?? Data()
        } catch {
            throw ResourceError(.io, href: href, message: "cannot read \(url.path): \(error)")
        }
    }
}

/// Bytes in memory as a `Resource`, for tests only. Can fail every read after `failAfterBytes` bytes
/// to simulate an I/O error part-way.
public struct DataResource: Resource {
    public let data: Data
    public let href: String
    public let failAfterBytes: UInt64?
    public var isRandomAccessCheap: Bool { true }

    public init(data: Data, href: String = "memory", failAfterBytes: UInt64? = nil) {
        self.data = data
        self.href = href
        self.failAfterBytes = failAfterBytes
    }

    public func length() throws(ResourceError) -> UInt64 { UInt64(data.count) }

    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        let whole = 0..<UInt64(data.count)
        let wanted = (range ?? whole).clamped(to: whole)
        if let failAfterBytes, wanted.upperBound > failAfterBytes {
            throw ResourceError(.io, href: href, message: "simulated read failure")
        }
        return data.subdata(in: Int(wanted.lowerBound)..<Int(wanted.upperBound))
    }
}
