// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why an XML document could not be parsed; the subject is the href (or path) of the document, the
/// position where the parser stopped.
public typealias XMLError = RAudioError<XMLErrorDomain>

/// The domain of `XMLError`; its codes are words of `RAudioErrorCode`.
public enum XMLErrorDomain: RAudioErrorDomain {}

extension XMLError {
    /// 1-based line of the error, 0 when unknown.
    public var line: Int { position?.line ?? 0 }
    /// 1-based column of the error, 0 when unknown.
    public var column: Int { position?.column ?? 0 }
}
