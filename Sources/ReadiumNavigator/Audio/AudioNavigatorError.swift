// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why a navigator cannot be made or cannot go somewhere; the message names the href or publication.
public typealias AudioNavigatorError = RAudioError<AudioNavigatorErrorDomain>

/// The domain of `AudioNavigatorError`; its codes are words of `RAudioErrorCode`.
public enum AudioNavigatorErrorDomain: RAudioErrorDomain {}
