// SPDX-License-Identifier: GPL-3.0-or-later
/// Why content cannot be iterated: an unknown starting href, an unreadable resource...
public typealias ContentError = RAudioError<ContentErrorDomain>

/// The domain of `ContentError`; its codes are words of `RAudioErrorCode`.
public enum ContentErrorDomain: RAudioErrorDomain {}
