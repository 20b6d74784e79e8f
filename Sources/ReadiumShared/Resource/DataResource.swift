// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A resource whose bytes are held in memory: a cover picture taken out of an audio file's tags.
public struct DataResource: Resource {
    public let href: String
    public let data: Data
    public var isRandomAccessCheap: Bool { true }

    public init(href: String, data: Data) {
        self.href = href
        self.data = data
    }

    public func length() throws(ResourceError) -> UInt64 { UInt64(data.count) }

    public func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        let whole = 0..<UInt64(data.count)
        let wanted = (range ?? whole).clamped(to: whole)
        return data.subdata(in: Int(wanted.lowerBound)..<Int(wanted.upperBound))
    }
}
