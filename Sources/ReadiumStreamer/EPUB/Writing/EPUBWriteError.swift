// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a narrated EPUB could not be written; the subject is the file or href concerned.
public typealias EPUBWriteError = RAudioError<EPUBWriteErrorDomain>

/// The domain of `EPUBWriteError`; its codes are words of `RAudioErrorCode`.
public enum EPUBWriteErrorDomain: RAudioErrorDomain {}
