// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// Synthesized utterances on disk, one file each, so that a render killed at any point and started again
/// speaks only what it had not: `raudio render --cache DIR`, by default `$XDG_CACHE_HOME/raudio/speech`.
///
/// A file is named by a hash of its key (`UtteranceAudioCache.Key`: the text, its phonemes, the voice or
/// language, rate, pitch, the engine with its version, and the key of the utterance spoken before it by the
/// same process) and holds the key itself, so that a hash collision
/// or another version's file is a miss, never the wrong audio. Layout: `DIR/ab/abcdef….utterance`, where the
/// file is `RAUDIOUTT1\n`, the key's length (UInt32 LE) and UTF-8 bytes, the sample rate, channel count,
/// word count and sample count (UInt32 LE each), each word's UTF-8 range in the text and start frame
/// (UInt32, UInt32, Int64 LE), the voice identifier's length and bytes, then the Float32 LE samples. When every
/// sample is a 16-bit value over 32768 (eSpeak NG's, at volume 1), the file starts `RAUDIOUTT2\n` instead and holds
/// those Int16 LE values: half the bytes (a book's 24 minutes of eSpeak NG: 62 MB instead of 124), read back as
/// the same floats.
///
/// Written atomically (a temporary file in the same folder, renamed): a file is whole or absent, whatever
/// kills the process. Any thread; files are read and written with blocking I/O.
public struct UtteranceAudioCache: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// `$XDG_CACHE_HOME/raudio/speech`, else `~/.cache/raudio/speech`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        RemoteByteCache.defaultFolder(environment: environment).appendingPathComponent("speech")
    }

    /// What decides an utterance's audio.
    public struct Key: Sendable, Hashable {
        public let text: String

        /// The key of `request` spoken by `engine` (its name and version: a new version speaks anew), after the
        /// utterance of key `previous` in the same engine process (eSpeak NG's samples depend on what it spoke
        /// before in the process: the same text in another place is another key).
        public init(_ request: TTSUtterance, engine: String, after previous: Key? = nil) {
            let voice = switch request.voiceOrLanguage {
            case .voice(let voice): "voice=\(voice.identifier)"
            case .language(let language): "language=\(language.code)"
            }
            let phonemes = request.phonemes.map { "\($0)" }.joined(separator: ";")
            text = "engine=\(engine)\nafter=\(previous?.fileName ?? "")\n\(voice)\nrate=\(request.rate)\npitch=\(request.pitch)\nvolume=\(request.volume)\nphonemes=\(phonemes)\ntext=\(request.text)"
        }

        /// Two FNV-1a hashes (64 bits each, different offsets) in hex: the file's name.
        var fileName: String {
            FNV1a64(text).hex + FNV1a64(text, offset: 0x6c62_272e_07bb_0142).hex
        }
    }

    private static let magic = Data("RAUDIOUTT1\n".utf8)
    private static let sixteenBitMagic = Data("RAUDIOUTT2\n".utf8)

    func file(for key: Key) -> URL {
        folder.appendingPathComponent(relativePath(for: key))
    }

    /// The file of `key` relative to the folder: `ab/abcdef….utterance`.
    func relativePath(for key: Key) -> String {
        let name = key.fileName
        return String(name.prefix(2)) + "/" + name + ".utterance"
    }

    /// Whether `path`, relative to the folder, is one the cache makes (`relativePath(for:)`): two hex digits, a
    /// slash, the hex name. Nothing else is ever read from a part file or removed by `trim`.
    static func isEntryPath(_ path: String) -> Bool {
        path.range(of: #"^[0-9a-f]{2}/[0-9a-f]{32}\.utterance$"#, options: .regularExpression) != nil
    }

    /// Whether a file for `key` is there (not read: a damaged one is still a miss when loaded).
    func contains(_ key: Key) -> Bool {
        FileManager.default.fileExists(atPath: file(for: key).path)
    }

    /// The cached audio of `key`, spoken as `text`'s words; nil when absent, damaged or another key's. A file read
    /// is marked as used now (its modification time), so that `trim` removes the least recently used first.
    public func load(_ key: Key, text: String, voice: TTSVoice) -> SynthesizedUtterance? {
        let path = file(for: key).path
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        _ = utimes(path, nil)
        let isSixteenBit = data.starts(with: Self.sixteenBitMagic)
        guard isSixteenBit || data.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(data: data, offset: Self.magic.count)
        guard let keyLength = reader.uint32(), let keyBytes = reader.bytes(Int(keyLength)), keyBytes == Data(key.text.utf8),
              let sampleRate = reader.uint32(), let channels = reader.uint32(), let wordCount = reader.uint32(), let sampleCount = reader.uint32()
        else { return nil }
        let utf8 = text.utf8
        var words: [TTSWordBoundary] = []
        words.reserveCapacity(Int(wordCount))
        for _ in 0..<wordCount {
            guard let lower = reader.uint32(), let upper = reader.uint32(), let frame = reader.int64(), lower <= upper, Int(upper) <= utf8.count else { return nil }
            let range = utf8.index(utf8.startIndex, offsetBy: Int(lower))..<utf8.index(utf8.startIndex, offsetBy: Int(upper))
            words.append(TTSWordBoundary(range: range, startFrame: frame))
        }
        guard let voiceLength = reader.uint32(), let voiceBytes = reader.bytes(Int(voiceLength)),
              let samples = isSixteenBit ? reader.sixteenBitSamples(Int(sampleCount)) : reader.floats(Int(sampleCount)), reader.isAtEnd
        else { return nil }
        let identifier = String(decoding: voiceBytes, as: UTF8.self)
        let spokenBy = identifier == voice.identifier ? voice : TTSVoice(identifier: identifier, name: identifier, language: voice.language)
        return SynthesizedUtterance(text: text, voice: spokenBy, format: PCMFormat(sampleRate: Int(sampleRate), channelCount: Int(channels)),
                                    samples: samples, wordBoundaries: words)
    }

    /// Stores `utterance` under `key`: a temporary file beside its place, renamed to it. Throws
    /// `AudioSinkError.writeFailed` when the folder cannot be written (a full disk).
    public func store(_ utterance: SynthesizedUtterance, for key: Key) throws(AudioSinkError) {
        let target = file(for: key)
        let sixteenBit = SixteenBitSpeech.exactValues(of: utterance.samples)
        var data = sixteenBit == nil ? Self.magic : Self.sixteenBitMagic
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let keyBytes = Data(key.text.utf8)
        append(UInt32(keyBytes.count))
        data.append(keyBytes)
        append(UInt32(utterance.format.sampleRate))
        append(UInt32(utterance.format.channelCount))
        append(UInt32(utterance.wordBoundaries.count))
        append(UInt32(utterance.samples.count))
        let utf8 = utterance.text.utf8
        for word in utterance.wordBoundaries {
            append(UInt32(utf8.distance(from: utf8.startIndex, to: word.range.lowerBound)))
            append(UInt32(utf8.distance(from: utf8.startIndex, to: word.range.upperBound)))
            withUnsafeBytes(of: word.startFrame.littleEndian) { data.append(contentsOf: $0) }
        }
        let voice = Data(utterance.voice.identifier.utf8)
        append(UInt32(voice.count))
        data.append(voice)
        if let sixteenBit {
            sixteenBit.withUnsafeBytes { data.append(contentsOf: $0) }
        } else {
            utterance.samples.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        try storeFile(data, at: target)
    }

    /// Writes `data` as the file `target` of the cache: a temporary file beside it, renamed to it.
    func storeFile(_ data: Data, at target: URL) throws(AudioSinkError) {
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else {
                throw AudioSinkError(.writeFailed, subject: target.path, message: "cannot rename: \(String(cString: strerror(errno)))", underlyingStatus: errno)
            }
        } catch let error as AudioSinkError {
            unlink(temporary.path)
            throw error
        } catch {
            unlink(temporary.path)
            throw AudioSinkError(.writeFailed, subject: folder.path, message: "cannot write the speech cache: \(error.localizedDescription)", cause: error)
        }
    }
}

/// Little-endian values read from `data`, nil past its end.
private struct ByteReader {
    let data: Data
    var offset: Int

    var isAtEnd: Bool { offset == data.count }

    mutating func bytes(_ count: Int) -> Data? {
        guard count >= 0, offset + count <= data.count else { return nil }
        defer { offset += count }
        return data.subdata(in: (data.startIndex + offset)..<(data.startIndex + offset + count))
    }

    mutating func uint32() -> UInt32? {
        bytes(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func int64() -> Int64? {
        bytes(8).map { Int64(bitPattern: $0.reversed().reduce(0) { $0 << 8 | UInt64($1) }) }
    }

    /// `count` Int16 values (in the machine's order, little-endian where raudio runs, as the Float32 ones), each over 32768.
    mutating func sixteenBitSamples(_ count: Int) -> [Float]? {
        guard let raw = bytes(count * MemoryLayout<Int16>.size) else { return nil }
        let values = [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = raw.copyBytes(to: buffer) / MemoryLayout<Int16>.size
        }
        return values.withUnsafeBufferPointer { SixteenBitSpeech.samples(of: $0) }
    }

    mutating func floats(_ count: Int) -> [Float]? {
        guard let raw = bytes(count * MemoryLayout<Float>.size) else { return nil }
        return raw.withUnsafeBytes { buffer in
            (0..<count).map { Float(bitPattern: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }
}
