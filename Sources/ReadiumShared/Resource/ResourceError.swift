// SPDX-License-Identifier: GPL-3.0-or-later
/// Why a resource could not be read: `ResourceError(.notFound, href: "a.mp3", message: "...")`.
public typealias ResourceError = RAudioError<ResourceErrorDomain>

/// The domain of `ResourceError`; its codes are words of `RAudioErrorCode`.
public enum ResourceErrorDomain: RAudioErrorDomain {}
