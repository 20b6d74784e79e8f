// SPDX-License-Identifier: GPL-3.0-or-later

extension WAVFileSink {
    /// `Int16((min(max(sample, -1), 1) * 32767).rounded())`, the same value for every sample, in float
    /// additions and selects that the compiler vectorizes: `rounded()` is a call to libm's `roundf` per
    /// sample (the baseline x86-64 target has no rounding instruction), which cost more than the rest
    /// of a WAV render's conversion (issue 19's profile of `raudio speak --jobs 2 --output wav:`).
    /// Pure: any thread.
    @inline(__always)
    static func pcm16(_ sample: Float) -> Int16 {
        let scaled = min(max(sample, -1), 1) * 32767
        let magnitude = abs(scaled)
        // Adding 2^23 leaves no fraction bits: to nearest, ties to even (exact for magnitudes below 2^23).
        var rounded = (magnitude + 8_388_608) - 8_388_608
        // A tie rounded down goes up instead: ties away from zero, as `rounded()`.
        if rounded - magnitude == -0.5 { rounded += 1 }
        let signed = scaled < 0 ? -rounded : rounded
        return int16(wholeNumber: signed)
    }
}

/// `value`, a whole number in -32768...32767 held in a Float, as Int16 without the range check of
/// `Int16(_:)`, which keeps a conversion loop from being vectorized: 1.5 * 2^23 + n has the two's
/// complement of n in its low mantissa bits. Shared by the WAV writer and the eSpeak NG workers' pipe.
@inline(__always)
func int16(wholeNumber value: Float) -> Int16 {
    Int16(truncatingIfNeeded: (value + 12_582_912).bitPattern)
}
