// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a resource could not be read: `ResourceError(.notFound, href: "a.mp3", message: "...")`.
public typealias ResourceError = RAudioError<ResourceErrorCode>

/// A stable category of `ResourceError`, mapped by the CLI to its exit codes.
public enum ResourceErrorCode: String, RAudioErrorCode {
    /// The resource does not exist in its container.
    case notFound = "not-found"
    /// The bytes are unreadable: corrupt, truncated, or not what they claim to be.
    case badData = "bad-data"
    /// The href would leave the publication's root (`../`, absolute path, symlink out).
    case forbidden = "forbidden-href"
    /// The href points to the network, and this container reads local files only (no HTTP client).
    case remote = "remote-resource"
    /// A remote resource cannot be fetched: its server is unreachable, refuses it, or keeps failing.
    case unavailable = "remote-unavailable"
    /// A remote resource's server cannot be reached at all (no connection, the host does not resolve),
    /// after the retries: the other resources of that server cannot be fetched either.
    case unreachable = "remote-unreachable"
    /// The resource is too large to read this way (for example a ZIP bomb).
    case tooLarge = "too-large"
    /// The operating system failed to read it.
    case io = "io"
}
