// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Describes an MP3 that carries no tag at all from its Xing/LAME/VBRI header, without FFmpeg.
///
/// Such a file has nothing for FFmpeg's demuxers to find but its length, which libmpg123 knows
/// exactly from the header (the decoder's `frameCount`, encoder delay and padding removed). So
/// `raudio play speech.mp3` of a plain LAME file loads none of FFmpeg's libraries (some 150 shared
/// libraries, about 25 ms and 20 MB). A file with any tag (ID3v2 at the start, ID3v1 or APEv2 at
/// the end), or without a trustworthy length header, is left to FFmpeg (nil): tags, chapters and
/// covers are read there.
enum MP3AudioFileInspector {
    /// The description of `resource`, sniffed as MP3; nil when it has a tag or no exact length.
    /// Runs on the caller's thread; reads the first frame and the file's last 160 bytes.
    static func inspect(_ resource: any Resource) throws -> AudioFileDescription? {
        guard try !hasAnyTag(resource) else { return nil }
        let decoder: MPG123Decoder
        do {
            decoder = try MPG123Decoder(resource: resource)
        } catch {
            return nil
        }
        guard !decoder.hasBackgroundScan, let frames = decoder.frameCount, frames > 0 else { return nil }
        return FFmpegAudioFileInspector.describe(
            tags: [:], duration: Double(frames) / Double(decoder.format.sampleRate), chapters: [], cover: nil)
    }

    /// Whether the file starts with an ID3v2 tag or ends with an ID3v1 (`TAG`) or APEv2 (`APETAGEX`,
    /// alone or before an ID3v1) tag.
    static func hasAnyTag(_ resource: any Resource) throws -> Bool {
        let length = try resource.length()
        guard length >= 160 else { return true }
        let head = [UInt8](try resource.read(range: 0..<3))
        if head == Array("ID3".utf8) { return true }
        let tail = [UInt8](try resource.read(range: (length - 160)..<length))
        guard tail.count == 160 else { return true }
        if Array(tail[32..<35]) == Array("TAG".utf8) { return true }
        if Array(tail[128..<136]) == Array("APETAGEX".utf8) { return true }
        if Array(tail[0..<8]) == Array("APETAGEX".utf8) { return true }
        return false
    }
}
