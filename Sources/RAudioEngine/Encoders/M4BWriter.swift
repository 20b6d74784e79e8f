// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import ReadiumNavigator

/// Writes PCM as an M4B audiobook: AAC in MP4 (FFmpeg's `aac` encoder and `ipod` muxer, the libraries raudio
/// already loads; no `ffmpeg` command), with chapters (a QuickTime chapter track, which audiobook players and
/// raudio's own MP4 reader take, and Nero's `chpl`) and the book's tags (title, author as artist, narrator as
/// composer, genre Audiobook).
///
/// The muxer makes its chapter track when it writes the file's header, and a chapter's start is known only
/// once the audio before it is: the encoded packets are kept in a spool file beside the output while the audio
/// comes, and `finish` writes the M4B from them with its chapters (a copy, no second encoding). Both are written
/// under temporary names beside `path`, the M4B renamed to it at the end: no partial file is ever left under the
/// output's name (`cancel`, or a failure, removes the temporary ones). One thread at a time; blocking file I/O.
public final class M4BWriter {
    /// The tags written into the file; nil or empty ones are left out.
    public struct Tags: Sendable, Hashable {
        public var title: String?
        public var authors: [String]
        public var narrators: [String]
        /// The cover, a JPEG or PNG image (an M4B's `covr`; other files leave it out).
        public var cover: Data?

        public init(title: String?, authors: [String] = [], narrators: [String] = [], cover: Data? = nil) {
            self.title = title
            self.authors = authors
            self.narrators = narrators
            self.cover = cover
        }
    }

    /// A chapter: its title and where it starts, in seconds of the audio appended.
    public struct Chapter: Sendable, Hashable {
        public var title: String
        public var start: Double

        public init(title: String, start: Double) {
            self.title = title
            self.start = start
        }
    }

    public let path: String
    public let format: PCMFormat
    private let tags: Tags
    private let temporaryPath: String
    private let spoolPath: String
    private let spool: UnsafeMutablePointer<FILE>
    private let encoder: FFmpegAudioEncoder
    private var ffmpeg: FFmpegEncoding { encoder.ffmpeg }
    private var isFinished = false
    private var isReleased = false

    /// Opens the spool file beside `path` and the encoder for PCM of `format`. Throws `AudioSinkError`
    /// (`.cannotCreate`) when FFmpeg cannot be loaded or has no AAC encoder, or the folder is not writable.
    public init(path: String, format: PCMFormat, tags: Tags, bitRate: Int = 64_000) throws(AudioSinkError) {
        self.path = path
        self.format = format
        self.tags = tags
        let folder = (path as NSString).deletingLastPathComponent
        let base = (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).\(getpid())"
        temporaryPath = base + ".part"
        spoolPath = base + ".aac-packets"
        encoder = try FFmpegAudioEncoder(codecName: "aac", format: format, bitRate: bitRate, globalHeader: true, subject: path)
        guard let opened = fopen(spoolPath, "w+b") else {
            let reason = String(cString: strerror(errno))
            encoder.release()
            throw AudioSinkError(.cannotCreate, subject: path, message: "cannot write beside it (\(spoolPath)): \(reason)", underlyingStatus: errno)
        }
        spool = opened
    }

    deinit {
        if !isFinished { cancel() }
    }

    /// The seconds of audio appended so far.
    public var duration: Double {
        format.seconds(ofFrames: encoder.appendedFrames)
    }

    /// Appends interleaved samples of `format`; encodes each whole frame of them.
    public func append(_ samples: [Float]) throws(AudioSinkError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(AudioSinkError) in try encoder.append(buffer, deliver: spoolPacket) }
    }

    /// Encodes what is left, then writes the M4B with `chapters` (in order; each ends where the next starts,
    /// the last at the end) and renames it to `path`. Returns the audio's length in seconds.
    @discardableResult
    public func finish(chapters: [Chapter]) throws(AudioSinkError) -> Double {
        let total = duration
        do {
            try encoder.finish(deliver: spoolPacket)
            try writeFile(chapters: chapters, total: total)
        } catch {
            cancel()
            throw error
        }
        release()
        isFinished = true
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot rename \(temporaryPath) to it: \(reason)")
        }
        return total
    }

    /// Gives up: the temporary files are removed, nothing is left under `path`.
    public func cancel() {
        release()
        isFinished = true
        unlink(temporaryPath)
    }

    /// A packet in the spool file: its size, timestamp and duration (in the encoder's time base), then its bytes.
    private struct SpooledPacket {
        var size: Int32
        var pts: Int64
        var duration: Int64
    }

    /// Writes one packet of the encoder's to the spool file.
    private func spoolPacket(_ packet: UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) {
        var header = SpooledPacket(size: packet.pointee.size, pts: packet.pointee.pts, duration: packet.pointee.duration)
        let written = fwrite(&header, MemoryLayout<SpooledPacket>.size, 1, spool) == 1
            && fwrite(packet.pointee.data, 1, Int(packet.pointee.size), spool) == Int(packet.pointee.size)
        guard written else {
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot write \(spoolPath): \(String(cString: strerror(errno)))", underlyingStatus: errno)
        }
    }

    /// Writes the M4B at `temporaryPath` from the spooled packets, with the tags and `chapters`.
    private func writeFile(chapters: [Chapter], total: Double) throws(AudioSinkError) {
        var created: UnsafeMutablePointer<AVFormatContext>?
        guard ffmpeg.avformat_alloc_output_context2(&created, nil, "ipod", temporaryPath) >= 0, let output = created else {
            throw AudioSinkError(.writeFailed, subject: path, message: "FFmpeg has no MP4 (ipod) muxer here")
        }
        var context: UnsafeMutablePointer<AVFormatContext>? = output
        defer {
            if output.pointee.pb != nil { _ = ffmpeg.avio_closep(&output.pointee.pb) }
            ffmpeg.demuxers.avformat_free_context(context)
            context = nil
        }
        output.pointee.flags |= Int32(AVFMT_FLAG_BITEXACT)
        guard let encoder = encoder.context, let packet = self.encoder.packet, let stream = ffmpeg.avformat_new_stream(output, nil) else {
            throw AudioSinkError(.writeFailed, subject: path, message: "out of memory")
        }
        stream.pointee.time_base = encoder.pointee.time_base
        _ = ffmpeg.avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        setTags(of: output)
        addChapters(chapters, total: total, to: output)
        let coverStream = addCoverStream(to: output)
        var status = ffmpeg.avio_open(&output.pointee.pb, temporaryPath, AVIO_FLAG_WRITE)
        if status >= 0 { status = ffmpeg.avformat_write_header(output, nil) }
        guard status >= 0 else {
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot write \(temporaryPath): \(ffmpeg.decoding.describe(status))")
        }
        if let coverStream, let cover = tags.cover {
            try writeCover(cover, stream: coverStream, to: output, packet: packet)
        }
        rewind(spool)
        var header = SpooledPacket(size: 0, pts: 0, duration: 0)
        while fread(&header, MemoryLayout<SpooledPacket>.size, 1, spool) == 1 {
            guard header.size >= 0, ffmpeg.decoding.av_new_packet(packet, header.size) >= 0,
                  fread(packet.pointee.data, 1, Int(header.size), spool) == Int(header.size) else {
                throw AudioSinkError(.writeFailed, subject: path, message: "cannot read back \(spoolPath)")
            }
            packet.pointee.pts = header.pts
            packet.pointee.dts = header.pts
            packet.pointee.duration = header.duration
            packet.pointee.stream_index = stream.pointee.index
            ffmpeg.av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            let written = ffmpeg.av_interleaved_write_frame(output, packet)
            guard written >= 0 else {
                throw AudioSinkError(.writeFailed, subject: path, message: "cannot write \(temporaryPath): \(ffmpeg.decoding.describe(written))")
            }
        }
        let trailer = ffmpeg.av_write_trailer(output)
        let closed = ffmpeg.avio_closep(&output.pointee.pb)
        guard trailer >= 0, closed >= 0 else {
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot finish \(temporaryPath): \(ffmpeg.decoding.describe(min(trailer, closed)))")
        }
    }

    /// An attached-picture stream for the cover (the muxer writes it as the `covr` tag), when there is one.
    private func addCoverStream(to output: UnsafeMutablePointer<AVFormatContext>) -> UnsafeMutablePointer<AVStream>? {
        guard let cover = tags.cover, !cover.isEmpty, let stream = ffmpeg.avformat_new_stream(output, nil) else { return nil }
        let isPNG = cover.starts(with: [0x89, 0x50, 0x4E, 0x47])
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        stream.pointee.codecpar.pointee.codec_id = isPNG ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG
        // The muxer wants a picture's dimensions (any will do for `covr`, which keeps the image as it is).
        let (width, height) = Self.imageSize(of: cover) ?? (600, 800)
        stream.pointee.codecpar.pointee.width = Int32(width)
        stream.pointee.codecpar.pointee.height = Int32(height)
        stream.pointee.disposition = Int32(AV_DISPOSITION_ATTACHED_PIC)
        stream.pointee.time_base = AVRational(num: 1, den: 90_000)
        return stream
    }

    /// A PNG's (IHDR) or a JPEG's (its SOF segment) width and height; nil for anything else.
    static func imageSize(of image: Data) -> (Int, Int)? {
        let bytes = [UInt8](image.prefix(65_536))
        func value(_ offset: Int, _ count: Int) -> Int { bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return (value(16, 4), value(20, 4)) }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return (value(offset + 7, 2), value(offset + 5, 2)) }
            offset += 2 + value(offset + 2, 2)
        }
        return nil
    }

    /// Writes the cover's one packet on its stream.
    private func writeCover(_ cover: Data, stream: UnsafeMutablePointer<AVStream>, to output: UnsafeMutablePointer<AVFormatContext>,
                            packet: UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) {
        guard ffmpeg.decoding.av_new_packet(packet, Int32(cover.count)) >= 0 else {
            throw AudioSinkError(.writeFailed, subject: path, message: "out of memory")
        }
        cover.withUnsafeBytes { packet.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: cover.count) }
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        packet.pointee.pts = 0
        packet.pointee.dts = 0
        let written = ffmpeg.av_interleaved_write_frame(output, packet)
        guard written >= 0 else {
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot write the cover into \(temporaryPath): \(ffmpeg.decoding.describe(written))")
        }
    }

    private func setTags(of output: UnsafeMutablePointer<AVFormatContext>) {
        func set(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            _ = ffmpeg.av_dict_set(&output.pointee.metadata, key, value, 0)
        }
        set("title", tags.title)
        set("album", tags.title)
        set("artist", tags.authors.joined(separator: ", "))
        set("album_artist", tags.authors.joined(separator: ", "))
        set("composer", tags.narrators.joined(separator: ", "))
        set("genre", "Audiobook")
    }

    /// `chapters` as the format context's (freed with it by `avformat_free_context`), in milliseconds.
    private func addChapters(_ chapters: [Chapter], total: Double, to output: UnsafeMutablePointer<AVFormatContext>) {
        guard !chapters.isEmpty else { return }
        let decoding = ffmpeg.decoding
        let size = chapters.count * MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride
        guard let array = decoding.av_mallocz(size)?.bindMemory(to: UnsafeMutablePointer<AVChapter>?.self, capacity: chapters.count) else { return }
        output.pointee.chapters = array
        for (index, chapter) in chapters.enumerated() {
            guard let made = decoding.av_mallocz(MemoryLayout<AVChapter>.size)?.bindMemory(to: AVChapter.self, capacity: 1) else { continue }
            let end = index + 1 < chapters.count ? chapters[index + 1].start : total
            made.pointee.id = Int64(index + 1)
            made.pointee.time_base = AVRational(num: 1, den: 1000)
            made.pointee.start = Int64((chapter.start * 1000).rounded())
            made.pointee.end = Int64((max(end, chapter.start) * 1000).rounded())
            _ = ffmpeg.av_dict_set(&made.pointee.metadata, "title", chapter.title, 0)
            array[index] = made
            output.pointee.nb_chapters = UInt32(index + 1)
        }
    }

    /// Frees the encoder, closes and removes the spool file.
    private func release() {
        guard !isReleased else { return }
        isReleased = true
        encoder.release()
        fclose(spool)
        unlink(spoolPath)
    }
}
