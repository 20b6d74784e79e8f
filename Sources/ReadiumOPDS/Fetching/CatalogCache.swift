// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ReadiumShared

/// Catalog documents on disk with their validators (`ETag`, `Last-Modified`), so that a feed read again is
/// asked for with `If-None-Match` / `If-Modified-Since` and a `304 Not Modified` costs no body.
///
/// One pair of files per URL, named by its FNV-1a hash: the body, and a JSON record (the URL asked, the URL that
/// served it after redirects, the validators). Only documents that parsed are stored (`CatalogFetcher` stores
/// after parsing), and never one fetched with credentials. Files are written to a temporary name and renamed,
/// so another raudio process never reads half of one. Thread-safe (file operations only).
public struct CatalogCache: Sendable {
    /// What the cache holds for a URL.
    public struct Entry: Sendable, Equatable {
        public var data: Data
        /// The URL that served it, after redirects: what its relative links resolve against.
        public var servedURL: String
        public var etag: String?
        public var lastModified: String?
    }

    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// `$XDG_CACHE_HOME/raudio/catalogs`, else `~/.cache/raudio/catalogs`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        RemoteByteCache.defaultFolder(environment: environment).appendingPathComponent("catalogs")
    }

    private func files(for url: String) -> (body: URL, record: URL) {
        let name = FNV1a64(url).hex
        return (folder.appendingPathComponent(name + ".body"), folder.appendingPathComponent(name + ".json"))
    }

    /// The entry for `url`, or nil.
    public func entry(for url: String) -> Entry? {
        let (bodyFile, recordFile) = files(for: url)
        guard let recordData = FileManager.default.contents(atPath: recordFile.path),
              let record = (try? JSONParser.parse(recordData))?.objectValue, record["url"]?.stringValue == url,
              let served = record["servedURL"]?.stringValue, let body = FileManager.default.contents(atPath: bodyFile.path),
              record["length"]?.intValue == body.count else { return nil }
        return Entry(data: body, servedURL: served, etag: record["etag"]?.stringValue, lastModified: record["lastModified"]?.stringValue)
    }

    /// Stores `entry` for `url` (nothing when it has no validator: it could never be revalidated).
    public func store(_ entry: Entry, for url: String) {
        guard entry.etag != nil || entry.lastModified != nil else { return }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (bodyFile, recordFile) = files(for: url)
        var record: JSONObject = ["url": .string(url), "servedURL": .string(entry.servedURL), "length": .integer(Int64(entry.data.count))]
        if let etag = entry.etag { record["etag"] = .string(etag) }
        if let lastModified = entry.lastModified { record["lastModified"] = .string(lastModified) }
        write(entry.data, to: bodyFile)
        write(Data(JSONValue.object(record).serialized().utf8), to: recordFile)
    }

    /// Forgets `url` (a document that no longer parses, or that the server now refuses).
    public func remove(_ url: String) {
        let (bodyFile, recordFile) = files(for: url)
        try? FileManager.default.removeItem(at: recordFile)
        try? FileManager.default.removeItem(at: bodyFile)
    }

    private func write(_ data: Data, to file: URL) {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
