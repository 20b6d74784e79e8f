// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The audio a package links instead of holding (`raudio align --link-audio`): a sidecar file beside the package,
/// `NAME.audio.json` for `NAME` (for example `synced.epub.audio.json`), naming for each href of the package that
/// the package does not hold the audio file it is, by a relative reference from the sidecar's folder:
///
/// ```json
/// {"raudioLinkedAudio": 1, "audio": [{"href": "EPUB/raudio/narration-1.mp3", "file": "../audiobook/001.mp3"}]}
/// ```
///
/// Only hrefs the package lacks are served from a linked file, only hrefs named as audio files (their extension),
/// and only regular files (no folder, no device): a sidecar cannot replace a document of the book, nor make the
/// reader open anything but the audio it names.
public struct LinkedAudio: Sendable, Equatable {
    public struct Link: Sendable, Equatable {
        /// The href in the package, from its root (as its container lists entries).
        public var href: String
        /// The file, as a relative reference from the sidecar's folder (percent-encoded where needed) or an absolute path.
        public var file: String

        public init(href: String, file: String) {
            self.href = href
            self.file = file
        }
    }

    public static let formatVersion = 1
    /// Extensions of the hrefs a sidecar may serve.
    public static let audioExtensions: Set<String> = [
        "mp3", "ogg", "oga", "opus", "m4a", "m4b", "mp4", "aac", "flac", "wav", "webm", "aiff", "aif",
    ]

    public var links: [Link]

    public init(links: [Link]) {
        self.links = links
    }

    /// The sidecar of the package at `package`.
    public static func sidecarURL(of package: URL) -> URL {
        package.deletingLastPathComponent().appendingPathComponent(package.lastPathComponent + ".audio.json")
    }

    /// The reference from `folder` to `file` (both absolute): `..` segments then the rest, each segment percent-encoded.
    public static func relativeReference(from folder: URL, to file: URL) -> String {
        let base = folder.standardizedFileURL.pathComponents.filter { $0 != "/" }
        let target = file.standardizedFileURL.pathComponents.filter { $0 != "/" }
        var common = 0
        while common < base.count, common < target.count - 1, base[common] == target[common] { common += 1 }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        let downs = target[common...].map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return (Array(repeating: "..", count: base.count - common) + downs).joined(separator: "/")
    }

    /// The sidecar's bytes: the links in the given order, one per line (deterministic).
    public func jsonData() -> Data {
        func quoted(_ string: String) -> String {
            var out = "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out + "\""
        }
        let lines = links.map { "  {\"href\": \(quoted($0.href)), \"file\": \(quoted($0.file))}" }
        return Data("{\"raudioLinkedAudio\": \(Self.formatVersion), \"audio\": [\n\(lines.joined(separator: ",\n"))\n]}\n".utf8)
    }

    /// Parses a sidecar; throws `.badData` naming `path` when it is not one.
    public init(data: Data, path: String) throws(ResourceError) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ResourceError(.badData, href: path, message: "is not a JSON object (a sidecar of linked audio, written by raudio align --link-audio)")
        }
        guard let version = object["raudioLinkedAudio"] as? Int, version == Self.formatVersion else {
            throw ResourceError(.badData, href: path, message: "is not a sidecar of linked audio of this raudio (\"raudioLinkedAudio\": \(Self.formatVersion) expected)")
        }
        guard let items = object["audio"] as? [[String: Any]] else {
            throw ResourceError(.badData, href: path, message: "has no \"audio\" list")
        }
        var links: [Link] = []
        for item in items {
            guard let href = item["href"] as? String, let file = item["file"] as? String, !file.isEmpty else {
                throw ResourceError(.badData, href: path, message: "has an entry without \"href\" and \"file\"")
            }
            let normalized = try Href(href).path
            guard Self.audioExtensions.contains((normalized as NSString).pathExtension.lowercased()) else {
                throw ResourceError(.forbidden, href: path, message: "links \(href), which is not named as an audio file (a sidecar links only audio)")
            }
            links.append(Link(href: normalized, file: file))
        }
        self.links = links
    }

    /// The sidecar of `package`, nil when there is none.
    public static func load(besides package: URL) throws(ResourceError) -> LinkedAudio? {
        let sidecar = sidecarURL(of: package)
        guard FileManager.default.fileExists(atPath: sidecar.path) else { return nil }
        let data = try FileResource(url: sidecar).read(maximumSize: 4 << 20)
        return try LinkedAudio(data: data, path: sidecar.path)
    }

    /// Each link's file, resolved from the sidecar's folder.
    public func files(besides package: URL) -> [(href: String, file: URL)] {
        let folder = package.deletingLastPathComponent()
        return links.map { link in
            let decoded = link.file.removingPercentEncoding ?? link.file
            let url = decoded.hasPrefix("/") ? URL(fileURLWithPath: decoded) : folder.appendingPathComponent(decoded)
            return (link.href, url.standardizedFileURL)
        }
    }
}

/// A package's container with the audio its sidecar links (`LinkedAudio`): each linked href the package does not
/// hold is read from its file; everything else from the package.
public struct LinkedAudioContainer: Container {
    public let base: any Container
    /// Linked href (normalized) to its file.
    public let files: [String: URL]
    private let linkedEntries: [String]

    /// Wraps `base` with `linked`'s files; throws `.notFound` naming a linked file that is missing (moved since the
    /// alignment), `.forbidden` for one that is not a regular file or that `isAudio` does not take for audio (a
    /// sidecar dropped beside a book must not make a key or a document readable as its "audio").
    public init(base: any Container, linked: LinkedAudio, packageURL: URL, isAudio: (URL) -> Bool = { _ in true }) throws(ResourceError) {
        self.base = base
        let held = Set(base.entries)
        var files: [String: URL] = [:]
        var entries: [String] = []
        for (href, file) in linked.files(besides: packageURL) where !held.contains(href) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
                throw ResourceError(.notFound, href: file.path, message: "does not exist; \(LinkedAudio.sidecarURL(of: packageURL).lastPathComponent) links it as \(href) (moved? put it back, or align again)")
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.resolvingSymlinksInPath().path)
            guard !isDirectory.boolValue, (attributes?[.type] as? FileAttributeType) == .typeRegular else {
                throw ResourceError(.forbidden, href: file.path, message: "is not a regular file; \(LinkedAudio.sidecarURL(of: packageURL).lastPathComponent) links it as \(href)")
            }
            guard isAudio(file) else {
                throw ResourceError(.forbidden, href: file.path, message: "is not an audio file; \(LinkedAudio.sidecarURL(of: packageURL).lastPathComponent) links it as \(href)")
            }
            if files[href] == nil { entries.append(href) }
            files[href] = file
        }
        self.files = files
        linkedEntries = entries
    }

    public var sourceURL: URL { base.sourceURL }
    public var entries: [String] { base.entries + linkedEntries }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        if let path = try? Href(href).path, let file = files[path] {
            return FileResource(url: file, href: path)
        }
        return try base.resource(at: href)
    }

    public func close() { base.close() }
}
