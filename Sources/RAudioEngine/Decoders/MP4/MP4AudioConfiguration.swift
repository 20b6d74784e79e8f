// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// What libavcodec needs to decode an MP4 audio track raudio demuxes itself: the codec and its
/// configuration bytes (`extradata`), from the sample entry. AAC (`mp4a` with an MPEG-4 or MPEG-2 AAC
/// `esds`) and ALAC (`alac`); anything else is left to FFmpeg's demuxer.
struct MP4AudioConfiguration {
    let codecID: AVCodecID
    let extradata: [UInt8]
    let channelCount: Int
    let sampleRate: Int

    init(track: MP4Track) throws(MP4Unsupported) {
        var entry = MP4Bytes(track.sampleEntry)
        // SampleEntry: reserved (6), data reference index (2); AudioSampleEntry: version (2), revision
        // (2), vendor (4), channels (2), sample size (2), compression id (2), packet size (2), rate 16.16 (4).
        try entry.skip(8)
        let version = try entry.uint16()
        try entry.skip(6)
        channelCount = Int(try entry.uint16())
        try entry.skip(6)
        sampleRate = Int(try entry.uint32() >> 16)
        // QuickTime sound descriptions: version 1 adds 16 bytes, version 2 adds 36.
        switch version {
        case 0: break
        case 1: try entry.skip(16)
        default: throw MP4Unsupported("a version \(version) sound description is left to FFmpeg")
        }
        let children = try Self.boxes(in: Array(track.sampleEntry[entry.offset...]))
        switch track.sampleEntryType {
        case "mp4a":
            guard let esds = children["esds"] else { throw MP4Unsupported("an mp4a entry without esds") }
            let (objectType, specific) = try Self.decoderConfiguration(esds)
            // 0x40 MPEG-4 audio; 0x66-0x68 the MPEG-2 AAC profiles.
            guard objectType == 0x40 || (0x66...0x68).contains(objectType), !specific.isEmpty else {
                throw MP4Unsupported("mp4a object type 0x\(String(objectType, radix: 16)) is left to FFmpeg")
            }
            codecID = AV_CODEC_ID_AAC
            extradata = specific
        case "alac":
            // libavcodec takes the whole 'alac' box, header included.
            guard let alac = children["alac"] else { throw MP4Unsupported("an alac entry without its configuration") }
            codecID = AV_CODEC_ID_ALAC
            extradata = Self.header(size: alac.count + 8, type: "alac") + alac
        default:
            throw MP4Unsupported("\(track.sampleEntryType) tracks are left to FFmpeg")
        }
    }

    /// Child boxes of a sample entry, by type (their payloads).
    private static func boxes(in bytes: [UInt8]) throws(MP4Unsupported) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        var cursor = MP4Bytes(bytes)
        while cursor.remaining >= 8 {
            let size = Int(try cursor.uint32())
            let type = try cursor.fourCC()
            guard size >= 8 else { break }
            let payload = try cursor.take(size - 8)
            if result[type] == nil { result[type] = payload }
        }
        return result
    }

    /// The object type and DecoderSpecificInfo of an `esds` (ES_Descriptor → DecoderConfigDescriptor).
    private static func decoderConfiguration(_ esds: [UInt8]) throws(MP4Unsupported) -> (UInt8, [UInt8]) {
        var bytes = MP4Bytes(esds)
        try bytes.skip(4)
        guard try bytes.uint8() == 0x03 else { throw MP4Unsupported("esds without an ES descriptor") }
        _ = try descriptorLength(&bytes)
        try bytes.skip(2)
        let flags = try bytes.uint8()
        if flags & 0x80 != 0 { try bytes.skip(2) }
        if flags & 0x40 != 0 { try bytes.skip(Int(try bytes.uint8())) }
        if flags & 0x20 != 0 { try bytes.skip(2) }
        guard try bytes.uint8() == 0x04 else { throw MP4Unsupported("esds without a decoder configuration") }
        let configLength = try descriptorLength(&bytes)
        let configEnd = bytes.offset + configLength
        let objectType = try bytes.uint8()
        try bytes.skip(12)
        guard bytes.offset < configEnd, try bytes.uint8() == 0x05 else { return (objectType, []) }
        let length = try descriptorLength(&bytes)
        return (objectType, try bytes.take(length))
    }

    /// An expandable descriptor length: 7 bits per byte while the top bit is set (at most 4 bytes).
    private static func descriptorLength(_ bytes: inout MP4Bytes) throws(MP4Unsupported) -> Int {
        var length = 0
        for _ in 0..<4 {
            let byte = try bytes.uint8()
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return length
    }

    private static func header(size: Int, type: String) -> [UInt8] {
        [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8)
    }
}
