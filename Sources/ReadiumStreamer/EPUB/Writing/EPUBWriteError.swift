// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a narrated EPUB could not be written; the subject is the file or href concerned.
public typealias EPUBWriteError = RAudioError<EPUBWriteErrorCode>

/// A stable category of `EPUBWriteError`, for the CLI's exit codes.
public enum EPUBWriteErrorCode: String, RAudioErrorCode {
    /// The source EPUB cannot be read (not a ZIP, no container, no package document, a content document that is
    /// not well-formed UTF-8 XHTML).
    case unreadableSource = "epub-write-unreadable-source"
    /// A narrated document is not a content document of the book, or its audio file cannot be read.
    case invalidNarration = "epub-write-invalid-narration"
    /// The output (or its temporary file beside it) cannot be written.
    case unwritableOutput = "epub-write-unwritable-output"
}
