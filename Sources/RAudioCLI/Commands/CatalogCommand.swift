// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumOPDS.
#if canImport(ReadiumOPDS)
import ArgumentParser
import Foundation
import RAudioPlayer
import ReadiumOPDS
import ReadiumShared

/// `raudio catalog URL`: lists a page of an OPDS catalog.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List an OPDS catalog (OPDS 1 or 2): its navigation, publications and how each can be had.",
        discussion: """
            Prints JSON lines (docs/OPDS.md): a "feed" line (title, pages, facets, search), a "navigation" line per \
            link to another feed, and a "publication" line per book, with its "entry" (URL#ENTRY: give it to raudio \
            play, speak or info to open the book's best open-access link, or to acquire it through its LCP licence), \
            title, authors, narrators, duration, format and "acquisitions". On a terminal a readable list instead \
            (--json to force JSON). --facet picks a facet (NAME or GROUP:NAME), --search searches through the \
            catalog's OpenSearch description or templated search link, --page follows next links. Feeds are cached \
            in $XDG_CACHE_HOME/raudio/catalogs with their ETag and Last-Modified. A catalog that asks to sign in gets \
            the credentials of --credentials FILE or $RAUDIO_CATALOG_CREDENTIALS (JSON: {"login": ..., \
            "password": ...} or {"token": ...}), or asks them on the terminal; they go to the catalog's host only and \
            are never printed or cached. Exit 65 for a page that is not a feed (catalog-not-a-feed), malformed \
            (catalog-malformed), too large (too-large), whose next links loop (catalog-page-loop) or that refuses the \
            credentials (catalog-authentication-failed); 66 not found; 69 a server that cannot be reached.
            """
    )

    @Argument(help: "The URL of an OPDS feed (Atom or OPDS 2 JSON).")
    var url: String

    @Option(help: ArgumentHelp("Search the catalog for TEXT.", valueName: "TEXT"))
    var search: String?

    @Option(help: ArgumentHelp("The page to list, following next links (1 is the first).", valueName: "N"))
    var page: Int = 1

    @Option(help: ArgumentHelp("A facet to narrow or sort by: its title, or GROUP:TITLE.", valueName: "NAME"))
    var facet: String?

    @Option(help: ArgumentHelp("A JSON file with the catalog's credentials ({\"login\",\"password\"} or {\"token\"}).", valueName: "FILE"))
    var credentials: String?

    @Flag(help: "Print JSON lines even on a terminal.")
    var json = false

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more") }
        guard Href.isRemote(url), URL(string: url)?.host != nil else { throw ValidationError("\(url): is not an http:// or https:// URL") }
    }

    func run() throws {
        var access = try CatalogAccess(catalogURL: url, credentialsFile: credentials)
        let (feed, pageURL) = try CatalogBrowsing.page(at: url, facet: facet, search: search, page: page, access: &access)
        let listing = CatalogListing(feed: feed, url: pageURL)
        do {
            if !json, isatty(STDOUT_FILENO) == 1 {
                for line in listing.lines { try StandardStreams.printLine(TerminalText.printable(line)) }
            } else {
                for line in listing.jsonLines { try StandardStreams.printLine(line.serialized()) }
            }
        } catch {
            // The reader of stdout went away.
        }
    }
}
#endif
