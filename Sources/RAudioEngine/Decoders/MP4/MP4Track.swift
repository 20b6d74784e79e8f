// SPDX-License-Identifier: GPL-3.0-or-later
/// One track of an MP4 movie (`trak`): what it holds and how its media maps to the timeline.
final class MP4Track {
    let id: UInt32
    /// The handler: `soun` for audio, `text` or `sbtl` for a chapter track.
    let handler: String
    /// Media time units per second (`mdhd`).
    let timescale: Int64
    /// The ISO 639-2/T language of `mdhd` (`eng`, `und`).
    let language: String?
    /// The first sample description's type (`mp4a`, `alac`, `text`, `drms`, ...).
    let sampleEntryType: String
    /// The first sample description's payload (fields and child boxes).
    let sampleEntry: [UInt8]
    /// The track's edits (`elst`): each a duration on the movie's timescale and where it starts in the
    /// media (-1 for an empty edit).
    let edits: [(duration: Int64, mediaTime: Int64)]
    /// Track ids this one names as its chapters (`tref`/`chap`).
    let chapterTrackIDs: [UInt32]
    let samples: MP4SampleTable

    init(trak: MP4Box, files: MP4BoxReader) throws(MP4Unsupported) {
        let boxes = try files.children(of: trak)
        guard let tkhd = boxes.first("tkhd"), let mdia = boxes.first("mdia") else { throw MP4Unsupported("a track lacks tkhd or mdia") }
        var header = MP4Bytes(try files.payload(of: tkhd))
        let version = try header.uint8()
        try header.skip(3 + (version == 1 ? 16 : 8))
        id = try header.uint32()
        edits = try boxes.first("edts").map { edts throws(MP4Unsupported) in try Self.edits(files, edts) } ?? []
        chapterTrackIDs = try boxes.first("tref").map { tref throws(MP4Unsupported) in try Self.chapterReferences(files, tref) } ?? []

        let media = try files.children(of: mdia)
        guard let mdhd = media.first("mdhd"), let hdlr = media.first("hdlr"), let minf = media.first("minf") else {
            throw MP4Unsupported("a track's media lacks mdhd, hdlr or minf")
        }
        var mediaHeader = MP4Bytes(try files.payload(of: mdhd))
        let mediaVersion = try mediaHeader.uint8()
        try mediaHeader.skip(3 + (mediaVersion == 1 ? 16 : 8))
        timescale = Int64(try mediaHeader.uint32())
        _ = try mediaHeader.uint(version: mediaVersion)
        language = Self.language(packed: try mediaHeader.uint16())
        guard timescale > 0 else { throw MP4Unsupported("a track's timescale is 0") }
        var handlerBytes = MP4Bytes(try files.payload(of: hdlr))
        try handlerBytes.skip(8)
        handler = try handlerBytes.fourCC()

        guard let stbl = try files.children(of: minf).first("stbl") else { throw MP4Unsupported("a track has no sample table") }
        guard let stsd = try files.children(of: stbl).first("stsd") else { throw MP4Unsupported("a track has no sample description") }
        // A full box with an entry count, then the entries.
        guard let entry = try files.children(of: stsd, skip: 8).first else { throw MP4Unsupported("a track's sample description is empty") }
        sampleEntryType = entry.type
        sampleEntry = try files.payload(of: entry, limit: 1 << 20)
        samples = try MP4SampleTable(stbl: stbl, files: files)
    }

    /// Media time units as samples at `rate` (rounded down).
    func samples(_ mediaTime: Int64, at rate: Int) -> Int64 {
        mediaTime * Int64(rate) / timescale
    }

    private static func edits(_ files: MP4BoxReader, _ edts: MP4Box) throws(MP4Unsupported) -> [(duration: Int64, mediaTime: Int64)] {
        guard let elst = try files.children(of: edts).first("elst") else { return [] }
        var bytes = MP4Bytes(try files.payload(of: elst))
        let version = try bytes.uint8()
        try bytes.skip(3)
        let count = Int(try bytes.uint32())
        guard count <= 1024 else { throw MP4Unsupported("the edit list has \(count) entries") }
        var edits: [(duration: Int64, mediaTime: Int64)] = []
        for _ in 0..<count {
            let duration = Int64(bitPattern: try bytes.uint(version: version))
            let mediaTime = version == 1 ? Int64(bitPattern: try bytes.uint64()) : Int64(Int32(bitPattern: try bytes.uint32()))
            try bytes.skip(4)  // media rate
            edits.append((duration, mediaTime))
        }
        return edits
    }

    private static func chapterReferences(_ files: MP4BoxReader, _ tref: MP4Box) throws(MP4Unsupported) -> [UInt32] {
        guard let chap = try files.children(of: tref).first("chap") else { return [] }
        var bytes = MP4Bytes(try files.payload(of: chap))
        var ids: [UInt32] = []
        while bytes.remaining >= 4 { ids.append(try bytes.uint32()) }
        return ids
    }

    /// Three 5-bit letters offset by 0x60, or nil for none / a Macintosh language code.
    private static func language(packed: UInt16) -> String? {
        guard packed >= 0x400 else { return nil }
        let letters = [(packed >> 10) & 0x1F, (packed >> 5) & 0x1F, packed & 0x1F].map { Character(Unicode.Scalar(UInt8($0) + 0x60)) }
        return String(letters)
    }
}
