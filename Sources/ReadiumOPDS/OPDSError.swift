// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a catalog document could not be read or followed; the subject is its URL.
public typealias OPDSError = RAudioError<OPDSErrorDomain>

/// The domain of `OPDSError`; its codes are the `catalog-` words of `RAudioErrorCode`, or the HTTP and
/// resource words of a fetch that failed under it.
public enum OPDSErrorDomain: RAudioErrorDomain {}
