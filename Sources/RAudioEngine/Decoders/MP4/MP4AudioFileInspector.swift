// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Describes an MP4/M4A/M4B file from its own boxes (`MP4Movie`, `MP4Metadata`), without FFmpeg:
/// `raudio info` and the opening of a 10-hour M4B neither load FFmpeg's libraries nor index the
/// book's 1.5 million samples.
enum MP4AudioFileInspector {
    /// The description of `resource`, sniffed as MP4; nil when this reader does not handle it (DRM,
    /// fragments, another codec, damage: FFmpeg then does).
    static func inspect(_ resource: any Resource) throws -> AudioFileDescription? {
        let reader = try ResourceReader(resource: resource)
        if FFmpegInput.protection(ofHeader: reader) != nil { return nil }
        do {
            let movie = try MP4Movie(reader: reader)
            guard let audio = movie.audioTrack, ["mp4a", "alac"].contains(audio.sampleEntryType) else { return nil }
            let metadata = try MP4Metadata(movie: movie)
            let chapters = metadata.chapters.map { AudioFileChapter(title: $0.title, start: $0.start, end: $0.end) }
            let cover = metadata.cover.flatMap { data in FFmpegAudioFileInspector.pictureType(data).map { AudioFileDescription.Cover(data: data, mediaType: $0) } }
            return FFmpegAudioFileInspector.describe(tags: metadata.tags, duration: duration(of: audio, in: movie), chapters: chapters, cover: cover)
        } catch {
            return nil
        }
    }

    /// The playing length: the edit's, else the media's less the edit's start.
    private static func duration(of track: MP4Track, in movie: MP4Movie) -> Double {
        let media = Double(track.samples.totalDuration) / Double(track.timescale)
        guard track.edits.count == 1, track.edits[0].mediaTime >= 0 else { return media }
        let start = Double(track.edits[0].mediaTime) / Double(track.timescale)
        let edit = Double(track.edits[0].duration) / Double(movie.timescale)
        return edit > 0 ? min(edit, media - start) : media - start
    }
}
