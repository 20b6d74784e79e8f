// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A media type (MIME type) such as `audio/mpeg` or `application/audiobook+json`.
///
/// Comparison ignores case and parameters other than `charset`, as Readium does.
public struct MediaType: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The normalized string: lowercase type and subtype, parameters kept.
    public let string: String
    /// For example `audio`.
    public let type: String
    /// For example `mpeg`, or `audiobook+json`.
    public let subtype: String
    /// Parameters such as `charset=utf-8`, keys lowercased.
    public let parameters: [String: String]

    /// Parses a media type; nil when `string` has no `type/subtype`.
    public init?(_ string: String) {
        let parts = string.split(separator: ";", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let essence = parts.first else { return nil }
        let typeAndSubtype = essence.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard typeAndSubtype.count == 2, !typeAndSubtype[0].isEmpty, !typeAndSubtype[1].isEmpty else { return nil }
        type = String(typeAndSubtype[0])
        subtype = String(typeAndSubtype[1])
        var parameters: [String: String] = [:]
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if key == "charset" { value = value.uppercased() }
            parameters[key] = value
        }
        self.parameters = parameters
        let suffix = parameters.keys.sorted().map { ";\($0)=\(parameters[$0]!)" }.joined()
        self.string = "\(type)/\(subtype)\(suffix)"
    }

    public var description: String { string }

    /// `type/subtype` without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    /// Whether `other` is the same type, ignoring parameters other than charset.
    public func matches(_ other: MediaType?) -> Bool {
        guard let other else { return false }
        return essence == other.essence && parameters["charset"] == other.parameters["charset"]
            || essence == other.essence && (parameters["charset"] == nil || other.parameters["charset"] == nil)
    }

    public var isAudio: Bool { type == "audio" }
    public var isVideo: Bool { type == "video" }
    public var isHTML: Bool { matches(.html) || matches(.xhtml) }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let mediaType = MediaType(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a media type: \(string)")
        }
        self = mediaType
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }

    private init(known string: String) {
        self.init(string)!
    }

    // Audio
    public static let mp3 = MediaType(known: "audio/mpeg")
    public static let ogg = MediaType(known: "audio/ogg")
    public static let opus = MediaType(known: "audio/opus")
    public static let aac = MediaType(known: "audio/aac")
    public static let mp4Audio = MediaType(known: "audio/mp4")
    public static let wav = MediaType(known: "audio/wav")
    public static let flac = MediaType(known: "audio/flac")
    public static let webmAudio = MediaType(known: "audio/webm")
    /// An Audible `.aa` file (protected by Audible's DRM: its metadata can be read, its audio not).
    public static let audibleAA = MediaType(known: "audio/audible")
    public static let aiff = MediaType(known: "audio/aiff")
    // Publications
    public static let readiumWebPubManifest = MediaType(known: "application/webpub+json")
    public static let readiumAudiobookManifest = MediaType(known: "application/audiobook+json")
    public static let readiumAudiobook = MediaType(known: "application/audiobook+zip")
    public static let readiumWebPub = MediaType(known: "application/webpub+zip")
    public static let lcpProtectedAudiobook = MediaType(known: "application/audiobook+lcp")
    public static let lcpLicenseDocument = MediaType(known: "application/vnd.readium.lcp.license.v1.0+json")
    public static let zab = MediaType(known: "application/x.readium.zab+zip")
    public static let epub = MediaType(known: "application/epub+zip")
    public static let w3cWPUBManifest = MediaType(known: "application/x.readium.w3c.wpub+json")
    /// A W3C Lightweight Packaging Format package (`.lpf`): a ZIP with `publication.json` at its root.
    public static let lpf = MediaType(known: "application/lpf+zip")
    public static let opds2 = MediaType(known: "application/opds+json")
    public static let opds2Publication = MediaType(known: "application/opds-publication+json")
    // Documents
    public static let json = MediaType(known: "application/json")
    public static let xhtml = MediaType(known: "application/xhtml+xml")
    public static let html = MediaType(known: "text/html")
    public static let xml = MediaType(known: "application/xml")
    public static let css = MediaType(known: "text/css")
    public static let text = MediaType(known: "text/plain")
    public static let smil = MediaType(known: "application/smil+xml")
    public static let ncx = MediaType(known: "application/x-dtbncx+xml")
    public static let opf = MediaType(known: "application/oebps-package+xml")
    public static let zip = MediaType(known: "application/zip")
    public static let pdf = MediaType(known: "application/pdf")
    // Images
    public static let jpeg = MediaType(known: "image/jpeg")
    public static let png = MediaType(known: "image/png")
    public static let gif = MediaType(known: "image/gif")
    public static let webp = MediaType(known: "image/webp")
    public static let svg = MediaType(known: "image/svg+xml")
    public static let avif = MediaType(known: "image/avif")

    /// The media type usually meant by a file extension (lowercase, without dot), or nil.
    public static func forFileExtension(_ fileExtension: String) -> MediaType? {
        switch fileExtension.lowercased() {
        case "mp3": .mp3
        case "ogg", "oga", "mogg": .ogg
        case "opus": .opus
        case "aac": .aac
        case "m4a", "m4b", "mp4", "alac": .mp4Audio
        case "wav": .wav
        case "flac": .flac
        case "webm": .webmAudio
        case "aif", "aiff": .aiff
        case "json": .json
        case "audiobook": .readiumAudiobook
        case "lcpa": .lcpProtectedAudiobook
        case "lcpl": .lcpLicenseDocument
        case "zab": .zab
        case "lpf": .lpf
        case "epub": .epub
        case "webpub": .readiumWebPub
        case "xhtml": .xhtml
        case "html", "htm": .html
        case "xml": .xml
        case "css": .css
        case "txt": .text
        case "smil": .smil
        case "ncx": .ncx
        case "opf": .opf
        case "zip": .zip
        case "pdf": .pdf
        case "jpg", "jpeg": .jpeg
        case "png": .png
        case "gif": .gif
        case "webp": .webp
        case "svg": .svg
        case "avif": .avif
        default: nil
        }
    }
}
