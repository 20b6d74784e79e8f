// SPDX-License-Identifier: GPL-3.0-or-later
/// How far back a Layer III frame may reach for its data: the bit reservoir, in frames.
///
/// A Layer III frame's main data may start up to `main_data_begin` bytes before the frame itself
/// (at most 511 bytes in MPEG-1, 255 in MPEG-2/2.5), inside the bodies of earlier frames. After a
/// seek, libmpg123 decodes and discards `MPG123_PREFRAMES` frames before the target to refill that
/// reservoir; its default (4) is too few for VBR streams, whose small frames (down to the lowest
/// bitrate) hold little main data each: the first frames after a seek then come out silent or
/// wrong. This computes a count that covers the worst case for a stream's version, rate and
/// channels. Pure arithmetic, no C.
enum MPEGBitReservoir {
    /// Frames to decode in advance of a seek target so the target frame decodes exactly as in a
    /// straight decode: enough frames to hold the largest possible reservoir at the smallest frame
    /// size, plus one for the overlap of the inverse MDCT and the synthesis filter.
    static func preframesNeeded(version: MPEGFrameHeader.Version, sampleRate: Int, channelCount: Int) -> Int {
        guard sampleRate > 0 else { return defaultPreframes }
        let isMPEG1 = version == .mpeg1
        let largestReservoir = isMPEG1 ? 511 : 255
        // The smallest frame of the version: 32 kb/s (MPEG-1) or 8 kb/s (MPEG-2/2.5), no padding.
        let smallestFrame = isMPEG1 ? 144 * 32_000 / sampleRate : 72 * 8_000 / sampleRate
        let sideInfo = switch (isMPEG1, channelCount == 1) {
        case (true, true): 17
        case (true, false): 32
        case (false, true): 9
        case (false, false): 17
        }
        // Header and a possible CRC word carry no main data.
        let mainDataPerFrame = max(1, smallestFrame - 4 - 2 - sideInfo)
        let reservoirFrames = (largestReservoir + mainDataPerFrame - 1) / mainDataPerFrame
        return max(defaultPreframes, reservoirFrames + 1)
    }

    /// libmpg123's own default for `MPG123_PREFRAMES`.
    static let defaultPreframes = 4
}
