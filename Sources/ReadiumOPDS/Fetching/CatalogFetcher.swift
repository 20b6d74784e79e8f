// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Fetches catalog documents with raudio's HTTP client, parses them, and keeps them in a `CatalogCache`.
///
/// Limits as for remote manifests: a document of at most `maximumBytes` (16 MB), two brief retries of a
/// transient failure, and `timeLimit` seconds for the whole of one document. Credentials go in an
/// `Authorization` header to the catalog's own host (`credentialsHost`) only, and libcurl drops the header on a
/// redirect to another host. Blocks on the network: call it from a thread of your own.
public struct CatalogFetcher: Sendable {
    /// A document fetched: its bytes, the URL that served it after redirects, and whether they came from the cache.
    public struct Fetched: Sendable {
        public var data: Data
        public var servedURL: String
        public var fromCache: Bool
        /// The validators the server sent (stored with the document once it parsed).
        var etag: String?
        var lastModified: String?
    }

    public var client: any HTTPClient
    public var cache: CatalogCache?
    public var credentials: CatalogCredentials?
    /// The host credentials are sent to: the host of the catalog the user named.
    public var credentialsHost: String?
    public var maximumBytes = OPDSParser.maximumDocumentSize
    /// What a probing fetch reads before deciding (`feed(at:probing:)`).
    static let probeLength = 4096
    public var timeLimit: Double = 60
    public var retryDelays: [Double] = [0.25, 0.5]
    /// Told about each retry.
    public var onWarning: @Sendable (RemoteWarning) -> Void = { _ in }
    /// Polled while waiting on the network; true ends the fetch (an interrupted command).
    public var shouldStop: @Sendable () -> Bool = { false }

    public init(client: any HTTPClient, cache: CatalogCache? = nil, credentials: CatalogCredentials? = nil, credentialsHost: String? = nil) {
        self.client = client
        self.cache = cache
        self.credentials = credentials
        self.credentialsHost = credentialsHost
    }

    /// Whether a request for `url` carries the credentials.
    func sendsCredentials(to url: String) -> Bool {
        guard credentials != nil, let host = URL(string: url)?.host?.lowercased() else { return false }
        return credentialsHost.map { $0.lowercased() == host } ?? true
    }

    /// Fetches the feed at `url` and parses it; a document that does not parse is not cached (and a cached copy of
    /// it is forgotten). Relative links are resolved against the URL that served it.
    ///
    /// With `probing`, a document whose first bytes are neither XML nor JSON (or are HTML) is not read further:
    /// `catalog-not-a-feed` at once, so that asking whether a URL is a catalog costs a few kilobytes of an audio file.
    public func feed(at url: String, probing: Bool = false) throws(OPDSError) -> Feed {
        let isWanted: ((Data) -> Bool)? = probing ? { (head: Data) -> Bool in [OPDSParser.Kind.xml, .json].contains(OPDSParser.kind(of: head)) } : nil
        let fetched = try fetch(url, isWanted: isWanted)
        do {
            let feed = try OPDSParser.parseFeed(data: fetched.data, url: fetched.servedURL)
            store(fetched, for: url)
            return feed.resolved(against: fetched.servedURL)
        } catch {
            cache?.remove(url)
            throw error
        }
    }

    /// Fetches the OpenSearch description at `url`.
    public func openSearchDescription(at url: String) throws(OPDSError) -> OpenSearchDescription {
        let fetched = try fetch(url)
        let description = try OpenSearchDescription(data: fetched.data, url: fetched.servedURL)
        store(fetched, for: url)
        return description
    }

    /// Fetches the authentication document at `url`.
    public func authenticationDocument(at url: String) throws(OPDSError) -> AuthenticationDocument {
        let fetched = try fetch(url, acceptingStatuses: [401])
        return try AuthenticationDocument(data: fetched.data, url: fetched.servedURL)
    }

    private func store(_ fetched: Fetched, for url: String) {
        guard !fetched.fromCache, !sendsCredentials(to: url) else { return }
        cache?.store(CatalogCache.Entry(data: fetched.data, servedURL: fetched.servedURL, etag: fetched.etag, lastModified: fetched.lastModified), for: url)
    }

    /// Fetches `url` whole: revalidated from the cache when it holds it, with the credentials when they go to its
    /// host. `acceptingStatuses` are answers whose body is wanted although they are not successes.
    ///
    /// - Throws: `catalog-authentication-failed` for 401/403 (naming the sign-in the catalog asks for, when it
    ///   says), `not-found` for 404/410, `too-large`, `timed-out`, and the network's errors.
    /// `isWanted`, when given, sees the first `probeLength` bytes (or the whole document when shorter) once: false
    /// ends the transfer there with `catalog-not-a-feed`.
    public func fetch(_ url: String, acceptingStatuses: Set<Int> = [], isWanted: ((Data) -> Bool)? = nil) throws(OPDSError) -> Fetched {
        let withCredentials = sendsCredentials(to: url)
        let cached = withCredentials ? nil : cache?.entry(for: url)
        var headers = ["Accept": "application/opds+json, application/atom+xml;q=0.9, application/json;q=0.8, application/xml;q=0.7, */*;q=0.1"]
        if let credentials, withCredentials { headers["Authorization"] = credentials.authorizationHeader }
        if let cached {
            if let etag = cached.etag { headers["If-None-Match"] = etag }
            if let lastModified = cached.lastModified { headers["If-Modified-Since"] = lastModified }
        }
        let request = HTTPRequest(url: url, acceptsCompression: true, headers: headers)
        var failures = 0
        while true {
            let deadline = Date().addingTimeInterval(timeLimit)
            var body = Data()
            var tooLarge = false
            var decided = isWanted == nil
            var unwanted = false
            let head: HTTPResponseHead
            do throws(HTTPError) {
                head = try client.perform(request, shouldStop: { shouldStop() || Date() > deadline }) { head, chunk in
                    guard head.isSuccess || acceptingStatuses.contains(head.status) || head.status == 401 else { return false }
                    guard body.count + chunk.count <= maximumBytes else {
                        tooLarge = true
                        return false
                    }
                    body.append(contentsOf: chunk)
                    if !decided, body.count >= Self.probeLength, let isWanted {
                        decided = true
                        unwanted = !isWanted(body)
                        return !unwanted
                    }
                    return true
                }
            } catch {
                if error.isTransient, failures < retryDelays.count {
                    onWarning(RemoteWarning(code: "remote-retry", url: url, message: "\(error.message); retrying"))
                    Thread.sleep(forTimeInterval: retryDelays[failures])
                    failures += 1
                    continue
                }
                let code: RAudioErrorCode = error.code == .timedOut ? .timedOut : (error.leavesTheServerUnreachable ? .remoteUnreachable : .remoteUnavailable)
                throw OPDSError(code, url: url, message: error.message, cause: error)
            }
            if head.isSuccess, unwanted || (!decided && !(isWanted?(body) ?? true)) {
                throw OPDSError(.catalogNotAFeed, url: url, message: "is neither XML nor JSON (or is a web page), so not an OPDS feed")
            }
            if tooLarge {
                throw OPDSError(.tooLarge, url: url, message: "is larger than \(maximumBytes / 1024 / 1024) MB, too large for a catalog page")
            }
            if Date() > deadline, !shouldStop() {
                throw OPDSError(.timedOut, url: url, message: "took more than \(Int(timeLimit)) seconds, the most a catalog page may take")
            }
            let served = head.url.isEmpty ? url : head.url
            switch head.status {
            case 304 where cached != nil:
                return Fetched(data: cached!.data, servedURL: cached!.servedURL, fromCache: true)
            case 200..<300:
                return Fetched(data: body, servedURL: served, fromCache: false, etag: head.headers["etag"], lastModified: head.headers["last-modified"])
            case let status where acceptingStatuses.contains(status):
                return Fetched(data: body, servedURL: served, fromCache: false)
            case 401, 403:
                cache?.remove(url)
                throw authenticationFailure(url: url, status: head, body: body, sentCredentials: withCredentials)
            case 404, 410:
                cache?.remove(url)
                throw OPDSError(.notFound, url: url, message: "the server answered \(head.statusDescription)")
            case 408, 429, 500...:
                if failures < retryDelays.count {
                    onWarning(RemoteWarning(code: "remote-retry", url: url, message: "the server answered \(head.statusDescription); retrying"))
                    Thread.sleep(forTimeInterval: retryDelays[failures])
                    failures += 1
                    continue
                }
                throw OPDSError(.remoteUnavailable, url: url, message: "the server answered \(head.statusDescription) (gave up after \(failures + 1) attempts)")
            default:
                throw OPDSError(.remoteUnavailable, url: url, message: "the server answered \(head.statusDescription)")
            }
        }
    }

    /// The error of a 401 or 403: what the catalog asks for (from the authentication document it answered
    /// with, when it did), and what to give raudio.
    private func authenticationFailure(url: String, status: HTTPResponseHead, body: Data, sentCredentials: Bool) -> OPDSError {
        if sentCredentials {
            return OPDSError(.catalogAuthenticationFailed, url: url, message: "the catalog refused the credentials given (\(status.statusDescription))")
        }
        var asks = ""
        if let document = try? AuthenticationDocument(data: body, url: url) {
            let flows = document.authentications.map { authentication in
                let labels = [authentication.loginLabel, authentication.passwordLabel].compactMap { $0 }.joined(separator: " and ")
                return "\(authentication.flow == .other ? authentication.type : authentication.flow.rawValue)" + (labels.isEmpty ? "" : " (\(labels))")
            }
            asks = " by \(document.title.isEmpty ? "the catalog" : document.title)" + (flows.isEmpty ? "" : ": \(flows.joined(separator: ", "))")
        }
        return OPDSError(
            .catalogAuthenticationFailed, url: url,
            message: "the catalog asks to sign in (\(status.statusDescription))\(asks); give --credentials FILE, or run raudio on a terminal to be asked"
        )
    }
}
