// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An audio container/codec recognized from a resource's first bytes.
public enum SniffedAudioFormat: Sendable, Equatable, CustomStringConvertible {
    /// MPEG-1/2/2.5 audio (layer I-III), possibly behind ID3v2 tags: decoded by libmpg123.
    case mp3
    /// Ogg Vorbis: decoded by vorbisfile.
    case vorbis
    /// A container FFmpeg's libraries read (MP4/M4A/M4B, ADTS AAC, FLAC, Ogg Opus, WAV, ...); `name` says
    /// which. Whether its codec decodes is known once FFmpeg has opened it.
    case ffmpeg(name: String)
    /// Recognized, not decodable by raudio; `name` says what it is ("Opus", "FLAC", "AAC (ADTS)", ...).
    case unsupported(name: String)
    /// Not an audio format raudio knows: empty, too short, or garbage.
    case notAudio

    public var description: String {
        switch self {
        case .mp3: "MP3"
        case .vorbis: "Ogg Vorbis"
        case .ffmpeg(let name): name
        case .unsupported(let name): name
        case .notAudio: "not audio"
        }
    }
}

/// Recognizes an audio format by content (magic numbers and frame syncs), never by file extension.
///
/// Pure Swift, no C: it lives in RAudioEngine beside the decoders it chooses between. Give it the first
/// bytes of a resource (`AudioFormatSniffer.prefixLength` is enough); it never throws.
public enum AudioFormatSniffer {
    /// The name an MP4 (MP4, M4A, M4B, ISO BMFF) file is sniffed as.
    static let mp4Name = "MP4/M4A"
    /// The name a native FLAC file is sniffed as.
    static let flacName = "FLAC"

    /// How many leading bytes `sniff(_:)` looks at. `sniff(resource:)` skips larger ID3v2 tags (cover
    /// art) by their declared size and reads as much again after them.
    public static let prefixLength = 64 * 1024

    /// Recognizes the format of `data`, the first bytes of a resource.
    public static func sniff(_ data: Data) -> SniffedAudioFormat {
        let bytes = [UInt8](data)
        return sniff(bytes: bytes, at: 0, allowID3: true)
    }

    static func sniff(bytes: [UInt8], at start: Int, allowID3: Bool) -> SniffedAudioFormat {
        let count = bytes.count - start
        guard count >= 4 else { return .notAudio }
        func matches(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            let from = start + offset
            guard from + magic.count <= bytes.count else { return false }
            return bytes[from..<(from + magic.count)].elementsEqual(magic)
        }
        if allowID3, matches(Array("ID3".utf8)), let end = id3v2End(bytes, at: start) {
            // Tags may repeat (two ID3v2 tags back to back); what follows the last one decides.
            if end >= bytes.count { return .mp3 }
            let inner = sniff(bytes: bytes, at: end, allowID3: true)
            // An ID3 tag followed by something unrecognizable is handed to libmpg123, which resyncs and
            // reports a clear error if it finds no frame.
            return inner == .notAudio ? .mp3 : inner
        }
        if matches(Array("OggS".utf8)) { return sniffOgg(bytes, at: start) }
        if matches(Array("fLaC".utf8)) { return .ffmpeg(name: flacName) }
        if matches(Array("RIFF".utf8)), matches(Array("WAVE".utf8), at: 8) { return .ffmpeg(name: "WAV") }
        if matches(Array("FORM".utf8)), matches(Array("AIF".utf8), at: 8) { return .ffmpeg(name: "AIFF") }
        if matches(Array("ftyp".utf8), at: 4) { return .ffmpeg(name: mp4Name) }
        if matches([0x1A, 0x45, 0xDF, 0xA3]) { return .ffmpeg(name: "WebM/Matroska") }
        if matches(Array("#!AMR".utf8)) { return .ffmpeg(name: "AMR") }
        if isADTSHeader(bytes, at: start) { return .ffmpeg(name: "AAC (ADTS)") }
        if let header = MPEGFrameHeader(bytes, at: start) {
            // One header at offset 0 is enough when the file is tiny; otherwise require the next one too.
            let next = start + header.frameLength
            if next + 4 > bytes.count || MPEGFrameHeader(bytes, at: next) != nil { return .mp3 }
        }
        // Junk before the first frame: look for two consecutive valid frame headers.
        if start == 0, findMPEGSync(bytes) != nil { return .mp3 }
        return .notAudio
    }

    /// The offset just after the ID3v2 tag at `start` (header + size + optional footer), or nil.
    static func id3v2End(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 10 <= bytes.count else { return nil }
        let sizeBytes = bytes[(start + 6)..<(start + 10)]
        guard sizeBytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = sizeBytes.reduce(0) { ($0 << 7) | Int($1) }
        let hasFooter = bytes[start + 5] & 0x10 != 0
        return start + 10 + size + (hasFooter ? 10 : 0)
    }

    static func isADTSHeader(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + 7 <= bytes.count else { return false }
        // 12-bit sync, then layer == 00 (MPEG audio frames have a non-zero layer).
        return bytes[offset] == 0xFF && bytes[offset + 1] & 0xF6 == 0xF0 && (bytes[offset + 2] >> 2) & 0x0F < 13
    }

    static func findMPEGSync(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 4 <= bytes.count {
            if bytes[offset] == 0xFF, let header = MPEGFrameHeader(bytes, at: offset),
               MPEGFrameHeader(bytes, at: offset + header.frameLength) != nil {
                return offset
            }
            offset += 1
        }
        return nil
    }

    /// Looks at every beginning-of-stream page at the head of an Ogg file and names the codecs.
    static func sniffOgg(_ bytes: [UInt8], at start: Int) -> SniffedAudioFormat {
        var offset = start
        var codecs: [String] = []
        while offset + 27 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual(Array("OggS".utf8)) {
            let isBeginningOfStream = bytes[offset + 5] & 0x02 != 0
            guard isBeginningOfStream else { break }
            let segmentCount = Int(bytes[offset + 26])
            let tableEnd = offset + 27 + segmentCount
            guard tableEnd <= bytes.count else { break }
            let bodyLength = bytes[(offset + 27)..<tableEnd].reduce(0) { $0 + Int($1) }
            let body = Array(bytes[tableEnd..<min(bytes.count, tableEnd + min(bodyLength, 16))])
            codecs.append(oggCodec(body))
            offset = tableEnd + bodyLength
        }
        if codecs.contains("Vorbis") { return .vorbis }
        if codecs.contains("Opus") { return .ffmpeg(name: "Ogg Opus") }
        if let audio = codecs.first(where: { $0 == "FLAC" || $0 == "Speex" }) {
            return .ffmpeg(name: "Ogg \(audio)")
        }
        if codecs.isEmpty { return .notAudio }
        return .unsupported(name: "Ogg without an audio stream (\(codecs.joined(separator: ", ")))")
    }

    static func oggCodec(_ body: [UInt8]) -> String {
        func starts(_ magic: [UInt8]) -> Bool { body.starts(with: magic) }
        if starts([0x01] + Array("vorbis".utf8)) { return "Vorbis" }
        if starts(Array("OpusHead".utf8)) { return "Opus" }
        if starts([0x7F] + Array("FLAC".utf8)) { return "FLAC" }
        if starts(Array("Speex   ".utf8)) { return "Speex" }
        if starts([0x80] + Array("theora".utf8)) { return "Theora video" }
        if starts(Array("fishead".utf8)) { return "Skeleton" }
        return "unknown"
    }
}
