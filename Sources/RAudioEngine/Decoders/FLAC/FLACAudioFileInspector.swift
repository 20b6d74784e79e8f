// SPDX-License-Identifier: GPL-3.0-or-later
import CFLAC
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Describes a native FLAC file from its metadata blocks, read by libFLAC without FFmpeg: Vorbis
/// comments (tags, `CHAPTERnnn` chapters), the cue sheet (chapters when no comment gives them) and the
/// pictures (a front cover first). `raudio play one.flac` then loads none of FFmpeg's libraries.
enum FLACAudioFileInspector {
    /// The description of `resource`, sniffed as native FLAC; nil when libFLAC cannot read its metadata
    /// (FFmpeg then tries).
    static func inspect(_ resource: any Resource) throws -> AudioFileDescription? {
        let reader = try ResourceReader(resource: resource)
        guard let decoder = FLAC__stream_decoder_new() else { return nil }
        defer { FLAC__stream_decoder_delete(decoder) }
        let client = FLACClient(reader: reader)
        let metadata = FLACMetadata()
        client.metadata = metadata
        _ = FLAC__stream_decoder_set_metadata_respond_all(decoder)
        let context = Unmanaged.passUnretained(client).toOpaque()
        guard FLAC__stream_decoder_init_stream(decoder, flacRead, flacSeek, flacTell, flacLength, flacEOF, flacWrite, flacMetadata, flacError, context)
                == FLAC__STREAM_DECODER_INIT_STATUS_OK,
              FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0, let info = client.streamInfo, info.sampleRate > 0
        else { return nil }
        let rate = Double(info.sampleRate)
        let duration = info.totalSamples > 0 ? Double(info.totalSamples) / rate : nil
        return FFmpegAudioFileInspector.describe(tags: metadata.tags, duration: duration, chapters: chapters(metadata, rate: rate), cover: cover(metadata))
    }

    /// `CHAPTERnnn=HH:MM:SS.mmm` with `CHAPTERnnnNAME`, else the cue sheet's tracks (untitled).
    private static func chapters(_ metadata: FLACMetadata, rate: Double) -> [AudioFileChapter] {
        let fromComments = metadata.chapterComments.sorted { $0.key < $1.key }.compactMap { _, chapter -> AudioFileChapter? in
            guard let start = chapter.start.flatMap(seconds) else { return nil }
            return AudioFileChapter(title: chapter.title.flatMap { $0.isEmpty ? nil : $0 }, start: start)
        }
        if !fromComments.isEmpty { return fromComments }
        return metadata.cueStarts.map { AudioFileChapter(title: nil, start: Double($0) / rate) }
    }

    /// `HH:MM:SS.mmm` (or `MM:SS.mmm`, or seconds) as seconds.
    private static func seconds(_ text: String) -> Double? {
        var total = 0.0
        for part in text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Double(part), value >= 0 else { return nil }
            total = total * 60 + value
        }
        return total.isFinite ? total : nil
    }

    private static func cover(_ metadata: FLACMetadata) -> AudioFileDescription.Cover? {
        let ordered = metadata.pictures.filter { $0.type == 3 } + metadata.pictures.filter { $0.type != 3 }
        for picture in ordered {
            if let type = FFmpegAudioFileInspector.pictureType(picture.data) { return AudioFileDescription.Cover(data: picture.data, mediaType: type) }
        }
        return nil
    }
}
