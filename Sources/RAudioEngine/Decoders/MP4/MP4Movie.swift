// SPDX-License-Identifier: GPL-3.0-or-later
/// An MP4/M4A/M4B file's `moov` as raudio's own reader sees it: the tracks, the movie timescale and
/// the user data (`udta`: iTunes tags, Nero chapters). Only what playback and the inspector need is
/// read; the sample tables stay in the file. Fragmented files (`mvex`) are left to FFmpeg.
final class MP4Movie {
    let files: MP4BoxReader
    /// Movie time units per second (`mvhd`): edit durations count in it.
    let timescale: Int64
    let tracks: [MP4Track]
    /// The `udta` box of the movie, when it has one.
    let userData: MP4Box?

    init(reader: ResourceReader) throws(MP4Unsupported) {
        files = MP4BoxReader(reader: reader)
        let top = try files.boxes(from: 0, to: reader.length, truncatedLast: true)
        guard top.first?.type == "ftyp" else { throw MP4Unsupported("no ftyp box first") }
        guard let moov = top.first("moov") else { throw MP4Unsupported("no moov box") }
        let boxes = try files.children(of: moov)
        guard boxes.first("mvex") == nil, top.first("moof") == nil else { throw MP4Unsupported("fragmented MP4 is left to FFmpeg") }
        guard let mvhd = boxes.first("mvhd") else { throw MP4Unsupported("no mvhd box") }
        var header = MP4Bytes(try files.payload(of: mvhd))
        let version = try header.uint8()
        try header.skip(3 + (version == 1 ? 16 : 8))
        timescale = Int64(try header.uint32())
        guard timescale > 0 else { throw MP4Unsupported("the movie timescale is 0") }
        var tracks: [MP4Track] = []
        for trak in boxes where trak.type == "trak" {
            // A track this reader cannot read (a hint or video track) is left out; if it was the
            // audio, the file goes to FFmpeg for want of one.
            if let track = try? MP4Track(trak: trak, files: files) { tracks.append(track) }
        }
        self.tracks = tracks
        userData = boxes.first("udta")
    }

    /// The first audio track.
    var audioTrack: MP4Track? { tracks.first { $0.handler == "soun" } }

    func track(id: UInt32) -> MP4Track? { tracks.first { $0.id == id } }
}
