// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Rewrites every href of a manifest relative to the root of its container, as Readium does.
///
/// A manifest at `book/manifest.json` that says `audio/01.mp3` gets `audio/01.mp3`; one at
/// `manifest.json` that says `../secret` keeps its href but gets a warning: the container will refuse
/// to read it. Remote hrefs (`http(s)://`) are kept as written; when the container cannot fetch them
/// (`fetchesRemoteHrefs` false), with one warning for the manifest.
struct ManifestHrefNormalizer {
    /// The href of the manifest inside its container (`manifest.json`).
    let manifestHref: String
    let log: WarningLog
    /// Whether the container fetches `http(s)://` hrefs (`RemoteLinkContainer`, `HTTPContainer`).
    let fetchesRemoteHrefs: Bool
    /// The entries of the package the manifest is in (empty for a standalone manifest): an href
    /// `http://readium.org/PATH` naming one of them is that entry, as Readium's early packagers wrote hrefs
    /// (EDRLab's LCP audiobook test package says `http://readium.org/audio/gtr-jazz.mp3`).
    let packageEntries: Set<String>
    private var remoteCount = 0

    init(manifestHref: String, log: WarningLog, fetchesRemoteHrefs: Bool = false, packageEntries: Set<String> = []) {
        self.manifestHref = manifestHref
        self.log = log
        self.fetchesRemoteHrefs = fetchesRemoteHrefs
        self.packageEntries = packageEntries
    }

    /// The package entry an absolute `http(s)://readium.org/PATH` href stands for, if the package has it.
    static func readiumBaseEntry(_ href: String, in entries: Set<String>) -> String? {
        guard !entries.isEmpty, let url = URL(string: href), url.host?.lowercased() == "readium.org" else { return nil }
        let path = String(url.path.drop { $0 == "/" })
        return entries.contains(path) ? path : nil
    }

    mutating func normalize(_ manifest: Manifest) -> Manifest {
        var manifest = manifest
        manifest.links = manifest.links.map { normalizeSelfLinks($0) }
        manifest.readingOrder = manifest.readingOrder.map { normalize($0, path: "readingOrder") }
        manifest.resources = manifest.resources.map { normalize($0, path: "resources") }
        manifest.tableOfContents = manifest.tableOfContents.map { normalize($0, path: "toc") }
        manifest.pageList = manifest.pageList.map { normalize($0, path: "pageList") }
        manifest.landmarks = manifest.landmarks.map { normalize($0, path: "landmarks") }
        if remoteCount > 0, !fetchesRemoteHrefs {
            log.append(ParsingWarning(
                source: manifestHref, path: "",
                message: "\(remoteCount) link(s) point to remote (http/https) resources, which cannot be fetched here, so they cannot be played"
            ))
        }
        return manifest
    }

    /// `links` keep absolute URLs (`self`, `alternate`) untouched and are not counted as remote resources.
    private func normalizeSelfLinks(_ link: Link) -> Link {
        guard !Href.isRemote(link.href), !link.templated else { return link }
        var link = link
        if let href = try? Href(link.href, relativeTo: manifestHref) { link.href = href.string }
        return link
    }

    private mutating func normalize(_ link: Link, path: String) -> Link {
        var link = link
        if link.templated {
            // A URI template is not a path; leave it as written.
        } else if Href.isRemote(link.href), let entry = Self.readiumBaseEntry(link.href, in: packageEntries) {
            link.href = entry
        } else if Href.isRemote(link.href) {
            remoteCount += 1
        } else {
            do {
                link.href = try Href(link.href, relativeTo: manifestHref).string
            } catch {
                log.append(ParsingWarning(source: manifestHref, path: path, message: "\(error.href) \(error.message); it will not be read"))
            }
        }
        link.alternates = link.alternates.map { normalize($0, path: path + ".alternate") }
        link.children = link.children.map { normalize($0, path: path + ".children") }
        return link
    }
}
