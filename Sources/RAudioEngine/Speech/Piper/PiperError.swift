// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a Piper voice could not be found, loaded or spoken with; the message names the file or voice.
public typealias PiperError = RAudioError<PiperErrorDomain>

/// The domain of `PiperError`; its codes are words of `RAudioErrorCode`.
public enum PiperErrorDomain: RAudioErrorDomain {}
