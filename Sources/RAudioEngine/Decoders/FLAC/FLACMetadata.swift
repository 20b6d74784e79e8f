// SPDX-License-Identifier: GPL-3.0-or-later
import CFLAC
import Foundation

/// The tags, pictures and cue sheet of a FLAC file, as libFLAC hands its metadata blocks over.
final class FLACMetadata {
    /// Vorbis comments, keys lowercased, under FFmpeg's names where it renames them (`albumartist` →
    /// `album_artist`, `description` → `comment`); a repeated key's values joined with `;` as FFmpeg does.
    private(set) var tags: [String: String] = [:]
    /// `CHAPTERnnn` / `CHAPTERnnnNAME` comments: number → (start text, title).
    private(set) var chapterComments: [Int: (start: String?, title: String?)] = [:]
    /// The cue sheet's track starts, in samples (the lead-out left out).
    private(set) var cueStarts: [UInt64] = []
    /// Pictures: (type, bytes); type 3 is the front cover.
    private(set) var pictures: [(type: UInt32, data: Data)] = []

    private static let renamed = ["albumartist": "album_artist", "description": "comment", "tracknumber": "track", "discnumber": "disc"]

    func receive(_ block: FLAC__StreamMetadata) {
        switch block.type {
        case FLAC__METADATA_TYPE_VORBIS_COMMENT:
            let comments = block.data.vorbis_comment
            for index in 0..<Int(comments.num_comments) {
                let entry = comments.comments[index]
                guard let bytes = entry.entry else { continue }
                let text = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.length)), as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { continue }
                receive(comment: String(text[..<equals]).lowercased(), value: String(text[text.index(after: equals)...]))
            }
        case FLAC__METADATA_TYPE_CUESHEET:
            let sheet = block.data.cue_sheet
            for index in 0..<Int(sheet.num_tracks) {
                let track = sheet.tracks[index]
                // Track 170 (255 for non-CD sheets) is the lead-out: the end, not a chapter.
                guard track.number != 170, track.number != 255 else { continue }
                cueStarts.append(track.offset)
            }
        case FLAC__METADATA_TYPE_PICTURE:
            let picture = block.data.picture
            guard let data = picture.data, picture.data_length > 0, picture.data_length < 64 << 20 else { return }
            pictures.append((picture.type.rawValue, Data(bytes: data, count: Int(picture.data_length))))
        default:
            break
        }
    }

    private func receive(comment key: String, value: String) {
        if key.hasPrefix("chapter"), let number = Int(key.dropFirst(7).prefix(while: \.isNumber)) {
            let rest = key.dropFirst(7).drop(while: \.isNumber)
            if rest.isEmpty { chapterComments[number, default: (nil, nil)].start = value }
            if rest == "name" { chapterComments[number, default: (nil, nil)].title = value }
            return
        }
        let name = Self.renamed[key] ?? key
        tags[name] = tags[name].map { $0 + ";" + value } ?? value
    }
}
