// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumShared

/// What `--web` serves over HTTP beside its WebSocket: the read-along page (from `web/`, found as the
/// voice presets are), the publication's own resources read from its package (nothing is extracted to
/// disk), its manifest and its cover.
///
/// | path | what |
/// |---|---|
/// | `/` | the page (`web/index.html`) |
/// | `/raudio/NAME` | the page's scripts and style (`web/NAME`) |
/// | `/publication/manifest.json` | the publication's Readium manifest |
/// | `/publication/HREF` | a resource of the publication, by its href |
/// | `/cover` | the cover (a link with rel `cover`), 404 when there is none |
///
/// Pure apart from reading files and resources: `response(to:)` may be called on any thread.
struct ReadAlongSite: Sendable {
    /// One HTTP answer.
    struct Response: Sendable {
        var status: Int
        var contentType: String
        var body: Data
        /// Set on the publication's resources: their own scripts do not run (see `response(to:)`).
        var isPublicationContent = false

        static func notFound(_ what: String) -> Response {
            Response(status: 404, contentType: "text/plain; charset=utf-8", body: Data("raudio: not found: \(what)\n".utf8))
        }
    }

    let publication: Publication?
    let pageFolder: URL

    /// The site of `publication`, or nil when the page's folder (`web/`) cannot be found (set
    /// `RAUDIO_WEB`).
    init?(publication: Publication?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let folder = InstalledDataFolder.find("web", variable: "RAUDIO_WEB", environment: environment) else { return nil }
        self.init(publication: publication, pageFolder: folder)
    }

    init(publication: Publication?, pageFolder: URL) {
        self.publication = publication
        self.pageFolder = pageFolder
    }

    /// The answer to `GET path` (the request target without its query). The publication's resources
    /// are served as their package declares them; XHTML stays XHTML (the browser parses it as XML, as
    /// Readium's navigators do). Their scripts are disabled by the server's `Content-Security-Policy`
    /// (`HTTPSiteHandler`), because they share the page's origin, which may drive the player.
    func response(to path: String) -> Response {
        let path = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        if path == "/" || path == "/index.html" { return pageFile("index.html") }
        if path.hasPrefix("/raudio/") { return pageFile(String(path.dropFirst("/raudio/".count))) }
        if path == "/cover" { return cover() }
        if path == "/publication/manifest.json", let publication {
            return Response(status: 200, contentType: "application/webpub+json", body: Data(publication.manifest.json.serialized().utf8))
        }
        if path.hasPrefix("/publication/") { return resource(String(path.dropFirst("/publication/".count))) }
        return .notFound(path)
    }

    private func pageFile(_ name: String) -> Response {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
              let data = FileManager.default.contents(atPath: pageFolder.appendingPathComponent(name).path) else {
            return .notFound("/raudio/\(name)")
        }
        return Response(status: 200, contentType: Self.contentType(forName: name), body: data)
    }

    private func resource(_ encodedHref: String) -> Response {
        guard let publication else { return .notFound(encodedHref) }
        let candidates = [encodedHref, encodedHref.removingPercentEncoding].compactMap { $0 }
        for href in candidates where !href.split(separator: "/").contains("..") {
            guard let data = try? publication.resource(at: href).read() else { continue }
            let manifest = publication.manifest
            let declared = (manifest.readingOrder + manifest.resources + manifest.links)
                .first { $0.hrefWithoutFragment == href }?.type
            var response = Response(status: 200, contentType: declared ?? Self.contentType(forName: href), body: data)
            response.isPublicationContent = true
            return response
        }
        return .notFound(encodedHref)
    }

    private func cover() -> Response {
        guard let link = publication?.manifest.coverLink else {
            return .notFound("/cover (the publication has none)")
        }
        return resource(link.hrefWithoutFragment)
    }

    /// The media type of a file by its extension; `application/octet-stream` when unknown.
    static func contentType(forName name: String) -> String {
        let fileExtension = (name as NSString).pathExtension.lowercased()
        switch fileExtension {
        case "html": return "text/html; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        default: return MediaType.forFileExtension(fileExtension)?.string ?? "application/octet-stream"
        }
    }
}
