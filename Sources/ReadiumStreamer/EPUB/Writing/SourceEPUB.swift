// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ZIPFoundation

/// A source EPUB read whole for rewriting: every entry's bytes in the ZIP's order, and its package document.
struct SourceEPUB {
    /// Entry paths in the order of the ZIP's central directory (directories left out).
    var order: [String] = []
    var data: [String: Data] = [:]
    var packagePath: String
    var packageData: Data
    var package: EPUBPackageDocument
    /// The book's first `dc:title`, for the navigation document made for an EPUB 2 book.
    var title: String {
        package.metadataElements.first { $0.localName == "title" }?.normalizedText ?? "Contents"
    }
    /// The latest modification time of an entry.
    var latestModification: Date

    init(url: URL) throws(EPUBWriteError) {
        let name = url.path
        var latest = Date(timeIntervalSince1970: 315_532_800)
        do {
            let archive = try Archive(url: url, accessMode: .read)
            for entry in archive where entry.type == .file {
                var bytes = Data()
                _ = try archive.extract(entry, skipCRC32: false) { bytes.append($0) }
                if data[entry.path] == nil { order.append(entry.path) }
                data[entry.path] = bytes
                if let date = entry.fileAttributes[.modificationDate] as? Date, date > latest { latest = date }
            }
        } catch {
            throw EPUBWriteError(.unreadableSource, subject: name, message: "cannot be read as a ZIP: \(error.localizedDescription)", cause: error)
        }
        latestModification = latest
        guard let containerData = data[EPUBParser.containerPath] else {
            throw EPUBWriteError(.unreadableSource, subject: name, message: "is not an EPUB: \(EPUBParser.containerPath) is missing")
        }
        let fullPath: String
        do {
            let container = try XMLDocument(data: containerData, href: EPUBParser.containerPath)
            guard let path = container.root.descendants("rootfile").first(where: { $0.attribute("full-path") != nil })?.attribute("full-path") else {
                throw EPUBWriteError(.unreadableSource, subject: EPUBParser.containerPath, message: "names no package document")
            }
            fullPath = path
        } catch let error as EPUBWriteError {
            throw error
        } catch {
            throw EPUBWriteError(.unreadableSource, subject: EPUBParser.containerPath, message: "is not well-formed XML", cause: error)
        }
        guard let opf = data[fullPath] else {
            throw EPUBWriteError(.unreadableSource, subject: fullPath, message: "the package document named by container.xml is missing from \(url.lastPathComponent)")
        }
        packagePath = fullPath
        packageData = opf
        do {
            package = try EPUBPackageDocument(document: XMLDocument(data: opf, href: fullPath), warnings: WarningLog())
        } catch {
            throw EPUBWriteError(.unreadableSource, subject: fullPath, message: "is not a package document raudio can read", cause: error)
        }
    }
}
