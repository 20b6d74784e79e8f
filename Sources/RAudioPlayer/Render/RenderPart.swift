// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import ZIPFoundation

/// A part file (`raudio render --shard I/N --to part FILE`): the synthesized utterances of one share of a book,
/// as the speech cache keeps them, for `raudio render --merge` to put back in a cache and render from.
///
/// A ZIP: `raudio-part.json` first (the share, its blocks, the block size and the engine that spoke), then the
/// cache's files of the share's utterances in reading order under their cache names (`ab/abcd….utterance`),
/// stored, with fixed dates: the same share gives the same bytes.
public struct RenderPart: Sendable, Equatable {
    public var shard: RenderShard
    /// The share's blocks, and how many the whole book has.
    public var blocks: Range<Int>
    public var blockCount: Int
    public var blockSize: Int
    /// The engine and its version, as the cache keys name it (`RenderSettings.engineIdentity`).
    public var engineIdentity: String
    /// The cache files of the share's utterances, relative to the cache folder.
    public var files: [String]
    /// The options the share was rendered with (`RenderSettings.synthesisOptions`); empty in a part of an
    /// earlier raudio, which did not record them.
    public var options: [Option] = []

    /// An option of `raudio render` that changes what is synthesized, and its value.
    public struct Option: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    static let descriptionName = "raudio-part.json"
    static let formatName = "raudio-render-part"
    static let version = 1

    var json: JSONValue {
        .object(JSONObject([
            ("format", .string(Self.formatName)), ("version", .integer(Int64(Self.version))),
            ("shard", .string(shard.description)), ("firstBlock", .integer(Int64(blocks.lowerBound))),
            ("endBlock", .integer(Int64(blocks.upperBound))), ("blockCount", .integer(Int64(blockCount))),
            ("blockSize", .integer(Int64(blockSize))), ("engine", .string(engineIdentity)),
            ("options", .object(JSONObject(options.map { ($0.name, JSONValue.string($0.value)) }))),
            ("files", .array(files.map(JSONValue.string))),
        ]))
    }

    /// Writes the part at `path` from the files of `cache` (a temporary name beside it, renamed at the end).
    /// Throws `AudioSinkError`: `.cannotCreate`, or `.writeFailed` (a cache file gone, a full disk).
    public func write(from cache: UtteranceAudioCache, to path: String) throws(AudioSinkError) {
        let description = Data(json.serialized(.pretty).utf8)
        try RenderArchive.write(to: path) { archive in
            try RenderArchive.add(description, as: Self.descriptionName, compressed: false, to: archive)
            for name in files {
                guard let data = FileManager.default.contents(atPath: cache.folder.appendingPathComponent(name).path) else {
                    throw AudioSinkError(.writeFailed, subject: path, message: "the speech cache lost \(name) while the part was written")
                }
                try RenderArchive.add(data, as: name, compressed: false, to: archive)
            }
        }
    }

    /// Reads the part at `path` and puts its utterances in `cache` (each file written whole, as the cache
    /// writes). Throws `CommandFailure`: 66 when it does not exist, 65 when it is not a part raudio wrote (or
    /// is damaged), 74 when the cache cannot be written.
    public static func unpack(_ path: String, into cache: UtteranceAudioCache) throws(CommandFailure) -> RenderPart {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(.inputNotFound, code: "part-not-found", message: "\(path): no such part file")
        }
        func damaged(_ why: String) -> CommandFailure {
            CommandFailure(.badData, code: "part-invalid", message: "\(path): not a part raudio render --shard wrote (\(why))")
        }
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw damaged("not a ZIP archive")
        }
        func contents(of entry: Entry) throws(CommandFailure) -> Data {
            guard entry.type == .file, entry.uncompressedSize <= 1 << 30 else { throw damaged("entry \(entry.path) is too large") }
            var data = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            } catch {
                throw damaged("entry \(entry.path): \(error)")
            }
            return data
        }
        guard let descriptionEntry = archive[descriptionName] else { throw damaged("no \(descriptionName)") }
        let description: JSONObject
        do {
            guard let object = try JSONValue(parsing: contents(of: descriptionEntry)).objectValue else { throw damaged("\(descriptionName) is not an object") }
            description = object
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw damaged("\(descriptionName): \(error)")
        }
        guard description["format"]?.stringValue == formatName else { throw damaged("its format is not \(formatName)") }
        guard description["version"]?.intValue == version else {
            throw damaged("version \(description["version"]?.intValue.map(String.init) ?? "?"); this raudio reads version \(version)")
        }
        guard let shard = description["shard"]?.stringValue.flatMap(RenderShard.init(parsing:)),
              let first = description["firstBlock"]?.intValue, let end = description["endBlock"]?.intValue, first <= end,
              let blockCount = description["blockCount"]?.intValue, end <= blockCount,
              let blockSize = description["blockSize"]?.intValue, blockSize > 0,
              let engine = description["engine"]?.stringValue,
              let names = description["files"]?.arrayValue?.compactMap(\.stringValue)
        else { throw damaged("\(descriptionName) lacks a field") }
        for name in names {
            // Names as the cache makes them: nothing that leaves the folder.
            guard UtteranceAudioCache.isEntryPath(name) else {
                throw damaged("entry name \(name)")
            }
            guard let entry = archive[name] else { throw damaged("no entry \(name)") }
            let target = cache.folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: target.path) { continue }
            let data = try contents(of: entry)
            do {
                try cache.storeFile(data, at: target)
            } catch {
                throw CommandFailure(error)
            }
        }
        var part = RenderPart(shard: shard, blocks: first..<end, blockCount: blockCount, blockSize: blockSize, engineIdentity: engine, files: names)
        // Absent from the parts of an earlier raudio: the merge then finds a share made otherwise missing.
        if let options = description["options"]?.objectValue {
            part.options = options.compactMap { entry in entry.value.stringValue.map { Option(name: entry.key, value: $0) } }
        }
        return part
    }
}
