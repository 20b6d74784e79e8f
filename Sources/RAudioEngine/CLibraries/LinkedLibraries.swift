// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
import CFLAC
import CMPG123
import CPulseAudio
import CSonic
import CSoxr
import CVorbisFile

/// The versions of the C libraries raudio uses, as reported by the libraries themselves.
public enum LinkedLibraries {
    /// One line per library: name and version. Calls `mpg123_distversion`'s older sibling
    /// `mpg123_decoders`, `vorbis_version_string`, `espeak_Info`, `pa_get_library_version`,
    /// `soxr_version`, `FLAC__VERSION_STRING`, and creates and destroys a sonic stream (libsonic has no version call).
    /// libespeak-ng and libpulse are loaded with dlopen for it (they are not linked): one that cannot be
    /// loaded is listed as "unavailable" with the loader's reason.
    public static func versions() -> [(name: String, version: String)] {
        let mpg123Decoder = mpg123_decoders()?.pointee.map { String(cString: $0) } ?? "unknown decoder"
        let vorbis = vorbis_version_string().map { String(cString: $0) } ?? "unknown"
        let espeak = unavailable(raudio_espeak_load_error()) ?? espeak_Info(nil).map { String(cString: $0) } ?? "unknown"
        let pulse = unavailable(raudio_pulse_load_error()) ?? pa_get_library_version().map { String(cString: $0) } ?? "unknown"
        let soxr = soxr_version().map { String(cString: $0) } ?? "unknown"
        let flac = raudio_flac_version().map { String(cString: $0) } ?? "unknown"
        let sonicStream = sonicCreateStream(44_100, 1)
        let sonicWorks = sonicStream != nil
        if let sonicStream { sonicDestroyStream(sonicStream) }
        return [
            ("libmpg123", "decoder \(mpg123Decoder)"),
            ("libvorbis", vorbis),
            ("espeak-ng", espeak),
            ("libpulse", pulse),
            ("libsoxr", soxr),
            ("libFLAC", flac),
            ("libsonic", sonicWorks ? "available" : "unavailable"),
        ]
    }

    /// "unavailable: REASON" for a library that could not be loaded, nil for one that was.
    private static func unavailable(_ loadError: UnsafePointer<CChar>?) -> String? {
        loadError.map { "unavailable: \(String(cString: $0))" }
    }
}
