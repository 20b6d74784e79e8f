// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The tags, cover and chapters of an MP4/M4A/M4B movie, read from its boxes: iTunes tags
/// (`udta`/`meta`/`ilst`, freeform `----` items by name), the `covr` picture, and chapters from a
/// QuickTime chapter track (`tref`/`chap`, preferred, as FFmpeg prefers it) or Nero's `chpl`.
/// Tag keys are FFmpeg's (`title`, `artist`, `album_artist`, ...), so the inspector reads both alike.
struct MP4Metadata {
    var tags: [String: String] = [:]
    /// The first `covr` picture's bytes.
    var cover: Data?
    var chapters: [(title: String?, start: Double, end: Double?)] = []

    /// iTunes item types and the keys FFmpeg gives them (plus Audible's narrator and publisher).
    static let keys: [String: String] = [
        "©nam": "title", "©ART": "artist", "aART": "album_artist", "©alb": "album", "©wrt": "composer",
        "©cmt": "comment", "©day": "date", "©gen": "genre", "©too": "encoder", "cprt": "copyright",
        "desc": "description", "ldes": "synopsis", "©grp": "grouping", "©lyr": "lyrics", "©prf": "performer",
        "©nrt": "narrator", "©pub": "publisher", "©des": "description", "©st3": "subtitle",
    ]

    init(movie: MP4Movie) throws(MP4Unsupported) {
        let files = movie.files
        if let udta = movie.userData {
            let boxes = try files.children(of: udta)
            if let meta = boxes.first("meta") { try readItems(meta, files) }
            if let chpl = boxes.first("chpl") { chapters = try Self.neroChapters(try files.payload(of: chpl)) }
        }
        if let audio = movie.audioTrack, let id = audio.chapterTrackIDs.first, let text = movie.track(id: id) {
            let fromTrack = try Self.trackChapters(text, files)
            if !fromTrack.isEmpty { chapters = fromTrack }
        }
        if let language = movie.audioTrack?.language { tags["language"] = language }
    }

    private mutating func readItems(_ meta: MP4Box, _ files: MP4BoxReader) throws(MP4Unsupported) {
        // An ISO full box (version and flags before its children), or QuickTime's plain container.
        let head = try files.bytes(at: meta.payload, count: min(8, meta.payloadSize))
        let skip: UInt64 = head.count == 8 && head[4..<8].elementsEqual("hdlr".utf8) ? 0 : 4
        guard let ilst = try files.children(of: meta, skip: skip).first("ilst") else { return }
        for item in try files.children(of: ilst) {
            guard item.payloadSize <= 16 << 20 else { continue }
            let children = try files.children(of: item)
            guard let data = children.first("data") else { continue }
            var value = MP4Bytes(try files.payload(of: data))
            let type = try value.uint32() & 0xFFFFFF
            try value.skip(4)
            let bytes = try value.take(value.remaining)
            if item.type == "covr" {
                if cover == nil, !bytes.isEmpty { cover = Data(bytes) }
                continue
            }
            guard let text = Self.text(bytes, type: type) else { continue }
            if item.type == "----" {
                guard let name = children.first("name") else { continue }
                var nameBytes = MP4Bytes(try files.payload(of: name))
                try nameBytes.skip(4)
                let key = String(decoding: try nameBytes.take(nameBytes.remaining), as: UTF8.self).lowercased()
                if !key.isEmpty, tags[key] == nil { tags[key] = text }
            } else if let key = Self.keys[item.type], tags[key] == nil {
                tags[key] = text
            }
        }
    }

    /// A text value: type 1 UTF-8, 2 UTF-16 (big-endian); nothing else is text.
    private static func text(_ bytes: [UInt8], type: UInt32) -> String? {
        switch type {
        case 1: String(decoding: bytes, as: UTF8.self)
        case 2: String(decoding: stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }, as: UTF16.self)
        default: nil
        }
    }

    /// Nero chapters: start times in 100 ns units and titles; each ends where the next starts.
    private static func neroChapters(_ payload: [UInt8]) throws(MP4Unsupported) -> [(title: String?, start: Double, end: Double?)] {
        var bytes = MP4Bytes(payload)
        let version = try bytes.uint8()
        try bytes.skip(3 + (version > 0 ? 4 : 0))
        let count = Int(try bytes.uint8())
        var chapters: [(title: String?, start: Double, end: Double?)] = []
        for _ in 0..<count {
            guard bytes.remaining >= 9 else { break }
            let start = Double(try bytes.uint64()) / 10_000_000
            let length = Int(try bytes.uint8())
            guard length <= bytes.remaining else { break }
            let title = String(decoding: try bytes.take(length), as: UTF8.self)
            chapters.append((title.isEmpty ? nil : title, start, nil))
        }
        return chapters
    }

    /// A QuickTime chapter track: each text sample a title (a 16-bit length, then UTF-8 or UTF-16 with
    /// a byte-order mark), lasting its sample's duration.
    private static func trackChapters(_ track: MP4Track, _ files: MP4BoxReader) throws(MP4Unsupported) -> [(title: String?, start: Double, end: Double?)] {
        let table = track.samples
        guard table.sampleCount <= 10_000 else { throw MP4Unsupported("a chapter track of \(table.sampleCount) samples") }
        let scale = Double(track.timescale)
        var chapters: [(title: String?, start: Double, end: Double?)] = []
        for index in 0..<table.sampleCount {
            let (offset, size) = try table.location(ofSample: index)
            let timing = table.timing(ofSample: index)
            let start = Double(timing.start) / scale
            let end = Double(timing.start + timing.duration) / scale
            guard size >= 2, size <= 4096 else {
                chapters.append((nil, start, end))
                continue
            }
            var sample = MP4Bytes(try files.bytes(at: offset, count: size))
            let length = min(Int(try sample.uint16()), sample.remaining)
            let text = try sample.take(length)
            chapters.append((title(text), start, end))
        }
        return chapters
    }

    private static func title(_ bytes: [UInt8]) -> String? {
        let text: String
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let bigEndian = bytes[0] == 0xFE
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { (index: Int) -> UInt16 in
                let high = UInt16(bytes[bigEndian ? index : index + 1])
                let low = UInt16(bytes[bigEndian ? index + 1 : index])
                return high << 8 | low
            }
            text = String(decoding: units, as: UTF16.self)
        } else {
            text = String(decoding: bytes, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }
}
