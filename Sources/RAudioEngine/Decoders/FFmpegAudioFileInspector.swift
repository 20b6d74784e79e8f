// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

/// Reads an audio file's tags, embedded chapters and cover with FFmpeg's demuxers: MP4/M4B (iTunes
/// tags, Nero `chpl` and QuickTime chapter tracks, `covr`), MP3 (ID3v2 text frames, `CHAP`, `APIC`),
/// Ogg Vorbis and Opus (comments, `CHAPTERnnn`/`CHAPTERnnnNAME`, `METADATA_BLOCK_PICTURE`), FLAC
/// (comments, cue sheet, `PICTURE`). Chapters are repaired (`AudioFileChapter.repaired`). Nothing is
/// decoded but the first frame; a 10-hour M4B is inspected in milliseconds.
public struct FFmpegAudioFileInspector: AudioFileInspector {
    public init() {}

    /// Plain MP4 files (AAC and ALAC) are read by raudio's own MP4 reader, native FLAC by libFLAC and
    /// an MP3 without any tag from its length header, without loading FFmpeg; the rest by FFmpeg's
    /// demuxers.
    /// An MP3 with junk before its first frame (two frames in a row found in its first 64 KiB, as
    /// libmpg123 and FFmpeg resynchronize): the decoders play it.
    public func audioMediaType(lookingFurtherInto resource: any Resource) -> MediaType? {
        (try? AudioFormatSniffer.sniff(resource: resource)) == .mp3 ? .mp3 : nil
    }

    public func inspect(_ resource: any Resource) throws -> AudioFileDescription {
        // The bytes say which reader, once: a format raudio reads itself but this file defeats (a
        // fragmented MP4, damaged FLAC metadata, a tagged MP3) still goes to FFmpeg.
        switch try AudioFormatSniffer.sniff(resource: resource) {
        case .ffmpeg(let name):
            let own: AudioFileDescription? = switch name {
            case AudioFormatSniffer.mp4Name: try MP4AudioFileInspector.inspect(resource)
            case AudioFormatSniffer.flacName: try FLACAudioFileInspector.inspect(resource)
            default: nil
            }
            if let own { return own }
        case .mp3:
            if let own = try MP3AudioFileInspector.inspect(resource) { return own }
        default:
            break
        }
        return try inspectWithFFmpeg(resource)
    }

    /// The description FFmpeg's demuxers give.
    func inspectWithFFmpeg(_ resource: any Resource) throws -> AudioFileDescription {
        let input: FFmpegInput
        do {
            input = try FFmpegInput(resource: resource)
        } catch {
            // A protected file is still a book someone owns: say which DRM, rather than fail.
            for protection in [Publication.Protection.audible, .fairPlay] where error.message == FFmpegInput.refusal(protection) {
                // An Audible .aa says its title, author and narrator in its header.
                var description = AudibleAAHeader.tags(of: resource).map { Self.describe(tags: $0, duration: nil, chapters: [], cover: nil) }
                    ?? AudioFileDescription()
                description.protection = protection
                return description
            }
            throw error
        }
        defer { input.close() }
        guard let context = input.context else { return AudioFileDescription() }
        var tags = input.streamTags
        tags.merge(input.tags) { stream, _ in stream }
        let chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index -> AudioFileChapter? in
            guard let chapter = context.pointee.chapters[index] else { return nil }
            let base = chapter.pointee.time_base
            guard base.den != 0 else { return nil }
            let seconds = { (value: Int64) in Double(value) * Double(base.num) / Double(base.den) }
            let title = input.ffmpeg.dictionary(chapter.pointee.metadata)["title"].flatMap { $0.isEmpty ? nil : $0 }
            return AudioFileChapter(title: title, start: seconds(chapter.pointee.start), end: seconds(chapter.pointee.end))
        }
        return Self.describe(tags: tags, duration: Self.duration(input, context), chapters: chapters, cover: Self.cover(context, input.ffmpeg))
    }

    /// A description from tags under FFmpeg's keys, the length, the chapters as found and the cover.
    static func describe(tags: [String: String], duration: Double?, chapters: [AudioFileChapter], cover: AudioFileDescription.Cover?) -> AudioFileDescription {
        var description = AudioFileDescription()
        func tag(_ keys: String...) -> String? {
            for key in keys {
                if let value = tags[key]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty { return value }
            }
            return nil
        }
        description.title = tag("title")
        description.album = tag("album")
        description.authors = names(tag("artist", "album_artist", "author"))
        description.narrators = names(tag("narrator", "narrated_by", "narratedby", "performer"))
        // An audiobook's narrator in an M4B is its composer (©wrt), as audiobook players read it and `raudio
        // render` writes it; a piece of music's composer is not its narrator.
        if description.narrators.isEmpty, tag("genre")?.lowercased().contains("audiobook") == true {
            description.narrators = names(tag("composer"))
        }
        description.language = tag("language").flatMap(language)
        description.description = tag("description", "synopsis", "comment")
        description.date = tag("date", "year")
        description.publisher = tag("publisher", "label")
        description.duration = duration
        let repaired = AudioFileChapter.repaired(chapters, duration: duration)
        description.chapters = repaired.chapters
        description.warnings = repaired.warnings
        description.cover = cover
        return description
    }

    /// Names separated as tags separate them (`;`, `/` in ID3v2.3, ` & ` is kept: it is often one credit).
    static func names(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(whereSeparator: { $0 == ";" || $0 == "\0" }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A BCP 47 tag from a language tag: ISO 639-2 codes (`eng`, `fre`) become their two-letter form
    /// where one is known; `und` and empty values are none.
    static func language(_ value: String) -> String? {
        let code = value.lowercased()
        guard !code.isEmpty, code != "und", code != "xxx" else { return nil }
        let twoLetter = ["eng": "en", "fre": "fr", "fra": "fr", "ger": "de", "deu": "de", "spa": "es", "ita": "it", "por": "pt",
                         "dut": "nl", "nld": "nl", "jpn": "ja", "chi": "zh", "zho": "zh", "rus": "ru", "ara": "ar", "heb": "he",
                         "pol": "pl", "swe": "sv", "nor": "no", "dan": "da", "fin": "fi", "gre": "el", "ell": "el", "tur": "tr"]
        return twoLetter[code] ?? code
    }

    private static func duration(_ input: FFmpegInput, _ context: UnsafeMutablePointer<AVFormatContext>) -> Double? {
        let stream = input.stream.pointee
        if stream.duration > 0, stream.duration != raudio_av_nopts_value(), stream.time_base.den != 0 {
            return Double(stream.duration) * Double(stream.time_base.num) / Double(stream.time_base.den)
        }
        if context.pointee.duration > 0, context.pointee.duration != raudio_av_nopts_value() {
            return Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        return nil
    }

    /// The first attached picture (MP4 `covr`, ID3 `APIC`, FLAC and Ogg pictures); a front cover first.
    private static func cover(_ context: UnsafeMutablePointer<AVFormatContext>, _ ffmpeg: FFmpegFunctions) -> AudioFileDescription.Cover? {
        var found: [(front: Bool, cover: AudioFileDescription.Cover)] = []
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[index], stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 else { continue }
            let packet = stream.pointee.attached_pic
            guard let data = packet.data, packet.size > 0 else { continue }
            let bytes = Data(bytes: data, count: Int(packet.size))
            guard let type = pictureType(bytes) else { continue }
            let comment = ffmpeg.dictionary(stream.pointee.metadata)["comment"]?.lowercased() ?? ""
            found.append((comment.contains("front") || comment.isEmpty, AudioFileDescription.Cover(data: bytes, mediaType: type)))
        }
        return (found.first { $0.front } ?? found.first)?.cover
    }

    /// The picture format by its magic number.
    static func pictureType(_ bytes: Data) -> MediaType? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.starts(with: Array("GIF8".utf8)) { return .gif }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }
}
