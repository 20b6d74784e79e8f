// SPDX-License-Identifier: GPL-3.0-or-later
/// Repeated reads of one resource by one reader, keeping open what can stay open between reads.
///
/// Made by `Resource.openReadSession()`. Not thread-safe: one reader uses it on one thread. What it
/// holds (a file descriptor) is released when the session is.
public protocol ResourceReadSession: AnyObject {
    /// Reads up to `buffer.count` bytes at `offset` into `buffer`; fewer only at the end (0 past it).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int
}

/// The default session: every read goes through the resource's own `read(into:at:)`.
final class PassThroughReadSession: ResourceReadSession {
    let resource: any Resource

    init(resource: any Resource) {
        self.resource = resource
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        try resource.read(into: buffer, at: offset)
    }
}

/// A session over an open file descriptor: `pread(2)` at `base + offset`, at most `limit` bytes in all
/// (a file, or a STORED entry inside a ZIP archive). Closes the descriptor when released.
final class OpenFileReadSession: ResourceReadSession {
    private let descriptor: FileDescriptor
    private let base: UInt64
    private let limit: UInt64
    /// The href named when the data ends before `limit` (a truncated archive); nil for a plain file.
    private let truncationHref: String?

    init(descriptor: FileDescriptor, base: UInt64 = 0, limit: UInt64 = .max, truncationHref: String? = nil) {
        self.descriptor = descriptor
        self.base = base
        self.limit = limit
        self.truncationHref = truncationHref
    }

    deinit {
        descriptor.close()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
        guard offset < limit, buffer.count > 0 else { return 0 }
        let wanted = Int(min(UInt64(buffer.count), limit - offset))
        let got = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: base + offset)
        if let truncationHref, got < wanted {
            throw ResourceError(.badData, href: truncationHref, message: "is truncated in the archive")
        }
        return got
    }
}
