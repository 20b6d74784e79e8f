// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

extension WAVFileSink {
    /// The 44-byte canonical header of a 16-bit PCM WAV file holding `dataBytes` bytes of samples.
    static func header(format: PCMFormat, dataBytes: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        func append(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        let channels = UInt16(format.channelCount)
        let blockAlign = channels * 2
        append("RIFF")
        append32(36 &+ dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(channels)
        append32(UInt32(format.sampleRate))
        append32(UInt32(format.sampleRate) * UInt32(blockAlign))
        append16(blockAlign)
        append16(16)
        append("data")
        append32(dataBytes)
        return bytes
    }
}
