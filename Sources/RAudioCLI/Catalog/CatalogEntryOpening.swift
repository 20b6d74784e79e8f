// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumOPDS.
#if canImport(ReadiumOPDS)
import Foundation
import RAudioPlayer
#if canImport(ReadiumLCP)
import ReadiumLCP
#endif
import ReadiumOPDS
import ReadiumShared

/// `raudio play|speak|info CATALOG-URL#ENTRY`: the book a catalog entry leads to, opened as a URL is today.
enum CatalogEntryOpening {
    /// How many loan documents are followed before giving up (a loan that leads to a loan...).
    static let maximumFollows = 3

    /// The path or URL to open for `path` when it names an entry of a catalog (`https://host/feed#ENTRY`), or nil
    /// when it does not (no fragment, or the URL without it is not an OPDS feed: a web page's `#section`).
    ///
    /// - Throws: `catalog-entry-not-found` when the feed has no such entry, `catalog-no-open-access` when the entry
    ///   offers nothing raudio opens, and the catalog's and LCP's errors.
    static func target(for path: String, prefersText: Bool) throws(CommandFailure) -> String? {
        guard Href.isRemote(path), var components = URLComponents(string: path), let fragment = components.fragment, !fragment.isEmpty else {
            return nil
        }
        components.fragment = nil
        guard let feedURL = components.string else { return nil }
        var access = try CatalogAccess(catalogURL: feedURL)
        let feed: Feed
        do {
            feed = try access.feed(at: feedURL, probing: true)
        } catch where failureMeansNotACatalog(failure: error) {
            return nil
        }
        guard let publication = CatalogEntryReference.find(fragment, in: feed) else {
            throw CommandFailure(OPDSError(.catalogEntryNotFound, url: path, message: "the feed has no entry \"\(fragment.removingPercentEncoding ?? fragment)\" (raudio catalog \(feedURL) lists its entries)"))
        }
        return try target(of: publication, entry: path, access: access, prefersText: prefersText, depth: 0)
    }

    /// A feed error that says the URL is no catalog, so that it is opened as it always was.
    private static func failureMeansNotACatalog(failure: CommandFailure) -> Bool {
        failure.code == RAudioErrorCode.catalogNotAFeed.rawValue || failure.code == RAudioErrorCode.catalogMalformed.rawValue
    }

    private static func target(
        of publication: OPDSPublication, entry: String, access: CatalogAccess, prefersText: Bool, depth: Int
    ) throws(CommandFailure) -> String {
        guard let choice = CatalogEntryChoice.best(for: publication, prefersText: prefersText) else {
            throw CommandFailure(OPDSError(.catalogNoOpenAccess, url: entry, message: "\"\(publication.title)\" \(CatalogEntryChoice.refusal(for: publication))"))
        }
        switch choice {
        case .open(let link):
            return link.href
        case .lcp(let link):
            return try acquireLCP(licenseURL: link.href, entry: entry, access: access)
        case .follow(let link):
            guard depth < maximumFollows else {
                throw CommandFailure(OPDSError(.catalogPageLoop, url: link.href, message: "the loan of \"\(publication.title)\" leads to another loan \(maximumFollows) times"))
            }
            let loan: Feed
            do {
                let fetched = try access.fetcher.fetch(link.href)
                loan = try OPDSParser.parseFeed(data: fetched.data, url: fetched.servedURL).resolved(against: fetched.servedURL)
            } catch {
                throw CommandFailure(error)
            }
            guard let next = loan.allPublications.first else {
                throw CommandFailure(OPDSError(.catalogNoOpenAccess, url: link.href, message: "the loan document of \"\(publication.title)\" holds no publication"))
            }
            return try target(of: next, entry: entry, access: access, prefersText: prefersText, depth: depth + 1)
        }
    }

    /// Fetches the LCP licence at `licenseURL` and acquires its publication (as `raudio lcp acquire` does) into
    /// `$XDG_CACHE_HOME/raudio/catalog-books`, unless it is there already; returns the book's path.
    private static func acquireLCP(licenseURL: String, entry: String, access: CatalogAccess) throws(CommandFailure) -> String {
        #if canImport(ReadiumLCP)
        let data = try access.fetch(licenseURL).data
        let license: LicenseDocument
        do {
            license = try LicenseDocument(data: data, source: licenseURL)
        } catch {
            throw CommandFailure(.badData, code: "lcp-license-invalid", message: "\(licenseURL): is not an LCP licence (\(error))")
        }
        let folder = CatalogCache.defaultFolder().deletingLastPathComponent().appendingPathComponent("catalog-books")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent(LCPAcquisition.defaultFileName(for: license))
        if !FileManager.default.fileExists(atPath: destination.path) {
            StandardStreams.printError("raudio: acquiring the LCP book of \(entry) into \(destination.path)")
            do {
                try LCPAcquisition(client: RemoteAccessSetup.client).acquire(
                    license, licenseData: data, to: destination, source: licenseURL, shouldStop: { RemoteAccessSetup.cancellation.isCancelled }
                )
            } catch {
                throw CommandFailure(error)
            }
        }
        return destination.path
        #else
        throw CommandFailure(OPDSError(.catalogNoOpenAccess, url: entry, message: "is had through an LCP licence, and this raudio is built without LCP"))
        #endif
    }
}
#endif
