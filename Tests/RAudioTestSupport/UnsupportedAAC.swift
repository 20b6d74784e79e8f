// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An M4A that FFmpeg's AAC decoder refuses, logging why: the corpus's AAC-LC file (antennapod__auphonic.m4a)
/// with the audio object type of its AudioSpecificConfig changed from 2 (LC) to 8 (CELP), which FFmpeg does
/// not implement ("Audio object type 8 is not implemented", AVERROR(ENOSYS)). Remove it when done.
public enum UnsupportedAAC {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func make() throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: try Corpus.file("audio/formats/antennapod__auphonic.m4a")))
        guard let esds = bytes.firstRange(of: Array("esds".utf8))?.lowerBound else { throw Failure(description: "no esds box") }
        // After the box's version and flags: ES_Descriptor (tag 3), DecoderConfigDescriptor (tag 4), DecoderSpecificInfo (tag 5).
        var offset = esds + 8
        func descriptor(_ tag: UInt8) throws -> Int {
            guard offset < bytes.count, bytes[offset] == tag else { throw Failure(description: "no descriptor \(tag) at \(offset)") }
            offset += 1
            var length = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                length = length << 7 | Int(byte & 0x7F)
                if byte < 0x80 { break }
            }
            return length
        }
        _ = try descriptor(3)
        offset += 3  // ES_ID, flags
        _ = try descriptor(4)
        offset += 13  // objectTypeIndication, streamType, bufferSizeDB, maxBitrate, avgBitrate
        guard try descriptor(5) >= 2, bytes[offset] >> 3 == 2 else { throw Failure(description: "not AAC LC") }
        bytes[offset] = 8 << 3 | bytes[offset] & 0x07
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-aot8-\(UUID().uuidString).m4a")
        try Data(bytes).write(to: url)
        return url
    }
}
