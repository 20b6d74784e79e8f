// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG

extension ESpeakEngine {
    /// The eSpeak NG library's version, from `espeak_Info`: part of the keys of cached speech, since another
    /// version may speak differently. Call once an `ESpeakEngine` exists (the library is loaded then).
    public static var libraryVersion: String {
        guard let version = espeak_Info(nil) else { return "unknown" }
        return String(cString: version)
    }
}
