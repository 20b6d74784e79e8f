// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared
import ReadiumStreamer

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
/// | `/raudio/copy` | GET: the LCP licence's `copy` right (`limit`, `remaining`; `limit` null when nothing limits copying); POST (the selected text as the body): a copy counted against it (`ReadAlongCopyRight`) |
///
/// Pure apart from reading files and resources: `response(to:)` may be called on any thread.
struct ReadAlongSite: Sendable {
    /// One HTTP answer: a small body in memory (the page, the manifest, a refusal), or a range of a
    /// publication resource to stream (`stream`), never read whole.
    struct Response: Sendable {
        var status: Int
        var contentType: String
        var body: Data
        /// Set on the publication's resources: their own scripts do not run (see `response(to:)`).
        var isPublicationContent = false
        /// The bytes of a publication resource to send instead of `body`, read in bounded chunks.
        var stream: ResourceStream?
        /// `Content-Range` of a 206 or 416.
        var contentRange: String?
        /// `Location` of a 302: a remote book's resource, fetched by the browser itself.
        var location: String?

        /// The `Content-Length`: the streamed range's, else the body's.
        var contentLength: UInt64 { stream.map { UInt64($0.range.count) } ?? UInt64(body.count) }

        static func notFound(_ what: String) -> Response {
            Response(status: 404, contentType: "text/plain; charset=utf-8", body: Data("raudio: not found: \(what)\n".utf8))
        }
    }

    /// A range of a resource to send: read through the publication's container by the manifest's href,
    /// from one read session opened when the request is answered (a folder book's file is opened once,
    /// following no symlink, and every chunk is read from that descriptor).
    struct ResourceStream: Sendable {
        let resource: any Resource
        let range: Range<UInt64>
        let reader: Reader

        /// The read session of one answer. Its chunks are read one after the other (the next only once the
        /// previous one was written), each on some global queue's thread: the lock orders them.
        final class Reader: @unchecked Sendable {
            private let session: Locked<any ResourceReadSession>

            init(_ session: any ResourceReadSession) {
                self.session = Locked(session)
            }

            /// Reads up to `count` bytes at `offset`; fewer only at the end.
            func read(at offset: UInt64, count: Int) throws(ResourceError) -> Data {
                var data = Data(count: count)
                let result: Result<Int, ResourceError> = session.withLock { session in
                    data.withUnsafeMutableBytes { buffer in
                        do throws(ResourceError) { return .success(try session.read(into: buffer, at: offset)) } catch { return .failure(error) }
                    }
                }
                data.count = try result.get()
                return data
            }
        }
    }

    let publication: Publication?
    let pageFolder: URL
    /// What `/publication/` may serve: the manifest's links, nothing else.
    let declared: DeclaredResources
    /// The LCP licence's `copy` right, which copies out of the page count against; nil when nothing limits copying.
    let copyRight: ReadAlongCopyRight?

    /// The largest selection `POST /raudio/copy` takes (bytes of UTF-8); a larger body is answered 413.
    static let maximumCopyBytes = 1 << 20

    /// The site of `publication`, or nil when the page's folder (`web/`) cannot be found (set
    /// `RAUDIO_WEB`).
    init?(publication: Publication?, copyRight: ReadAlongCopyRight? = nil,
          environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let folder = InstalledDataFolder.find("web", variable: "RAUDIO_WEB", environment: environment) else { return nil }
        self.init(publication: publication, pageFolder: folder, copyRight: copyRight)
    }

    init(publication: Publication?, pageFolder: URL, copyRight: ReadAlongCopyRight? = nil) {
        self.publication = publication
        self.pageFolder = pageFolder
        self.copyRight = copyRight
        declared = DeclaredResources(publication?.manifest)
    }

    /// The answer to `POST /raudio/copy`: the page asks to copy `body` (the listener's selection, UTF-8) out of
    /// the book. Counted against the LCP `copy` right when there is one (allowed whole, or refused whole with the
    /// reason); always allowed without one. A JSON object: `allowed`, `characters`, `remaining`, `limit`, `reason`.
    func copy(_ body: Data) -> Response {
        guard let text = String(data: body, encoding: .utf8) else {
            return Response(status: 400, contentType: "text/plain; charset=utf-8", body: Data("raudio: the selection is not UTF-8 text\n".utf8))
        }
        let answer: JSONValue = copyRight?.copy(text).json
            ?? ["allowed": true, "characters": .integer(Int64(text.count)), "limit": .null, "remaining": .null]
        return Response(status: 200, contentType: "application/json", body: Data(answer.serialized().utf8))
    }

    /// The answer to `GET path` (the request target; its query is ignored), with the request's
    /// `Range` header if any. The publication's resources are served as their package declares them;
    /// XHTML stays XHTML (the browser parses it as XML, as Readium's navigators do). Their scripts are
    /// disabled by the server's `Content-Security-Policy` (`IPCHTTPHandler`), because they share the
    /// page's origin, which may drive the player.
    ///
    /// Only the hrefs the manifest declares are served (`DeclaredResources`), read through the
    /// publication's own container by the manifest's href: a request can never name a file of the
    /// package the manifest leaves out, nor a URL for raudio to fetch.
    func response(to path: String, range: String? = nil) -> Response {
        let path = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        if path == "/" || path == "/index.html" { return pageFile("index.html") }
        if path == "/raudio/copy" {
            let state: JSONValue = copyRight?.state ?? ["limit": .null, "remaining": .null]
            return Response(status: 200, contentType: "application/json", body: Data(state.serialized().utf8))
        }
        if path.hasPrefix("/raudio/") { return pageFile(String(path.dropFirst("/raudio/".count))) }
        if path == "/cover" { return cover(range: range) }
        if path == "/publication/manifest.json", let publication {
            return Response(status: 200, contentType: "application/webpub+json", body: Data(publication.manifest.json.serialized().utf8))
        }
        if path.hasPrefix("/publication/") { return resource(String(path.dropFirst("/publication/".count)), range: range) }
        return .notFound(path)
    }

    private func pageFile(_ name: String) -> Response {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
              let data = FileManager.default.contents(atPath: pageFolder.appendingPathComponent(name).path) else {
            return .notFound("/raudio/\(name)")
        }
        return Response(status: 200, contentType: Self.contentType(forName: name), body: data)
    }

    private func resource(_ encodedHref: String, range: String?) -> Response {
        guard let publication, let link = declared.link(forRequested: encodedHref) else {
            return .notFound("/publication/\(encodedHref) (not a resource of the publication's manifest)")
        }
        let href = link.hrefWithoutFragment
        let resource: any Resource
        let length: UInt64
        let reader: ResourceStream.Reader
        do {
            resource = try publication.resource(at: href)
            // A remote file is fetched by the browser itself; a file inside a remote package (no URL of its
            // own) is read in place like the player reads it, from the package the listener opened.
            if resource.isRemote, Href.isRemote(resource.href) { return Self.redirect(to: resource.href, for: encodedHref) }
            length = try resource.length()
            reader = ResourceStream.Reader(try resource.openReadSession())
        } catch {
            return .notFound("/publication/\(encodedHref) (\(Self.publicReason(error)))")
        }
        if link.mediaType?.matches(.text) == true, publication.readingOrder.contains(where: { $0.hrefWithoutFragment == href }) {
            // A text file read aloud is shown as the document its locators point into (`PlainText.xhtml`): its
            // paragraphs, with the ids their selectors name, so that the page highlights them.
            guard let data = try? resource.read(maximumSize: XMLDocument.defaultMaximumSize) else {
                return .notFound("/publication/\(encodedHref) (cannot be read)")
            }
            var page = Response(status: 200, contentType: "application/xhtml+xml; charset=utf-8", body: PlainText.xhtml(of: PlainText.decode(data)))
            page.isPublicationContent = true
            return page
        }
        var response = Response(status: 200, contentType: link.type ?? Self.contentType(forName: href), body: Data())
        response.isPublicationContent = true
        switch HTTPByteRange(header: range, length: length) {
        case .whole:
            response.stream = ResourceStream(resource: resource, range: 0..<length, reader: reader)
        case .bytes(let bytes):
            response.status = 206
            response.contentRange = "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(length)"
            response.stream = ResourceStream(resource: resource, range: bytes, reader: reader)
        case .unsatisfiable:
            response.status = 416
            response.contentType = "text/plain; charset=utf-8"
            response.contentRange = "bytes */\(length)"
            response.body = Data("raudio: 416 Range Not Satisfiable: \(href) has \(length) bytes\n".utf8)
        }
        return response
    }

    /// Why a resource cannot be served, for the page's 404: the error's code word and the requested href
    /// only. The error's message may name where the book lies on disk ("does not exist in /home/..."),
    /// which is none of a page's business.
    static func publicReason(_ error: any Error) -> String {
        guard let error = error as? ResourceError else { return "cannot be read" }
        switch error.code {
        case .notFound: return "no such file in the publication"
        case .forbidden: return "refused: it leaves the publication"
        case .tooLarge: return "too large"
        case .badData: return "unreadable: the package is damaged"
        default: return "cannot be read (\(error.code.rawValue))"
        }
    }

    /// A remote book's resource (an `http(s)://` URL the manifest declares, or one of its hrefs resolved
    /// against the manifest's URL) is not fetched for the page: the browser is sent there (302) and
    /// fetches it itself, as any page would, so no request to the page server ever makes raudio send one.
    private static func redirect(to url: String, for encodedHref: String) -> Response {
        guard Href.isRemote(url), !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            return .notFound("/publication/\(encodedHref) (not a URL a browser can be sent to)")
        }
        var response = Response(status: 302, contentType: "text/plain; charset=utf-8", body: Data("raudio: at \(url)\n".utf8))
        response.location = url
        return response
    }

    private func cover(range: String?) -> Response {
        guard let link = publication?.manifest.coverLink else {
            return .notFound("/cover (the publication has none)")
        }
        return resource(link.hrefWithoutFragment, range: range)
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
