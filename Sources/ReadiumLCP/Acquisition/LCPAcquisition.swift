// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import ReadiumShared

/// Acquires the publication of an LCP licence (`raudio lcp acquire`, Readium's `LCPService.acquirePublication`):
/// downloads its `publication` link, checks the link's `length` and `hash` (SHA-256, hexadecimal or Base64),
/// puts the licence into it (`license.lcpl` at the root of a Readium package, `META-INF/license.lcpl` in an
/// EPUB) and only then renames it to its place: an interrupted or failed acquisition leaves no partial file.
public struct LCPAcquisition: Sendable {
    /// Bytes received so far, and the total when known (`length`, else `Content-Length`).
    public struct Progress: Sendable, Equatable {
        public var received: UInt64
        public var total: UInt64?

        /// 0...1 when the total is known.
        public var fraction: Double? { total.flatMap { $0 > 0 ? min(1, Double(received) / Double($0)) : nil } }
    }

    private let client: (any HTTPClient)?
    private let policy: LCPNetworkPolicy

    public init(client: (any HTTPClient)?, policy: LCPNetworkPolicy = .fromEnvironment()) {
        self.client = client
        self.policy = policy
    }

    /// The file name a publication gets by default: the licence id and the extension of the link's media type.
    public static func defaultFileName(for license: LicenseDocument) -> String {
        let link = license.link("publication")
        let known: [String: String] = [
            "application/epub+zip": "epub", "application/audiobook+lcp": "lcpa", "application/pdf+lcp": "lcpdf",
            "application/divina+lcp": "lcpdi", "application/audiobook+zip": "audiobook", "application/webpub+zip": "webpub",
        ]
        let fromType = link?.type.flatMap { known[$0.split(separator: ";").first.map(String.init)?.lowercased() ?? ""] }
        let fromHref = link.flatMap { URL(string: $0.href)?.pathExtension }.flatMap { ["epub", "lcpa", "lcpdf", "audiobook"].contains($0) ? $0 : nil }
        let safeID = String(license.id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" }.prefix(200))
        return "\(safeID.isEmpty ? "publication" : safeID).\(fromType ?? fromHref ?? "lcpa")"
    }

    /// Downloads the publication of `license` (whose text is `licenseData`) to `destination`.
    public func acquire(
        _ license: LicenseDocument, licenseData: Data, to destination: URL, source: String,
        shouldStop: @escaping () -> Bool = { false }, progress: (Progress) -> Void = { _ in }
    ) throws(LCPNetworkError) {
        guard let link = license.link("publication") else {
            throw LCPNetworkError(.lcpPublicationMismatch, subject: source, message: "the licence links no publication to acquire")
        }
        guard let client, policy.fetchesAllowed else {
            throw LCPNetworkError(.lcpNetwork, subject: link.href, message: "the publication cannot be downloaded: network fetches are off (\(LCPNetworkPolicy.offlineVariable))")
        }
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).raudio-\(UUID().uuidString.prefix(8)).part")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil), let handle = FileHandle(forWritingAtPath: temporary.path) else {
            throw LCPNetworkError(.lcpPublicationMismatch, subject: destination.path, message: "cannot create a file in \(folder.path)")
        }
        var finished = false
        defer {
            try? handle.close()
            if !finished { try? FileManager.default.removeItem(at: temporary) }
        }
        var hasher = SHA256()
        var received: UInt64 = 0
        var writeError: (any Error)?
        var lastReport = Date.distantPast
        let head: HTTPResponseHead
        do {
            head = try client.perform(HTTPRequest(url: link.href), shouldStop: shouldStop) { head, chunk in
                guard head.isSuccess else { return false }
                hasher.update(bufferPointer: chunk)
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    writeError = error
                    return false
                }
                received += UInt64(chunk.count)
                let now = Date()
                if now.timeIntervalSince(lastReport) >= 0.2 {
                    lastReport = now
                    progress(Progress(received: received, total: link.length.map(UInt64.init) ?? head.contentLength))
                }
                return true
            }
        } catch {
            throw LCPNetworkError(.lcpNetwork, subject: link.href, message: "the publication cannot be downloaded: \(error.message)", cause: error)
        }
        if let writeError {
            throw LCPNetworkError(.lcpPublicationMismatch, subject: destination.path, message: "cannot write the publication: \(writeError.localizedDescription)", cause: writeError)
        }
        guard head.isSuccess else {
            throw LCPNetworkError(.lcpNetwork, subject: link.href, message: "the publication server answered \(head.statusDescription)")
        }
        if shouldStop() {
            throw LCPNetworkError(.lcpNetwork, subject: link.href, message: "the download was stopped")
        }
        progress(Progress(received: received, total: link.length.map(UInt64.init) ?? received))
        if let length = link.length, UInt64(length) != received {
            throw LCPNetworkError(.lcpPublicationMismatch, subject: link.href, message: "the publication is \(received) bytes, the licence says \(length)")
        }
        if let expected = link.hash {
            let digest = Data(hasher.finalize())
            let hex = digest.map { String(format: "%02x", $0) }.joined()
            guard expected.lowercased() == hex || expected == digest.base64EncodedString() else {
                throw LCPNetworkError(.lcpPublicationMismatch, subject: link.href, message: "the publication's SHA-256 is \(hex), the licence says \(expected)")
            }
        }
        do {
            try handle.close()
            try LicenseWriteBack.inject(licenseData, intoArchiveAt: temporary)
        } catch {
            throw LCPNetworkError(.lcpPublicationMismatch, subject: link.href, message: "the licence cannot be put into the publication (not a ZIP package?): \(error)", cause: error)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            throw LCPNetworkError(.lcpPublicationMismatch, subject: destination.path, message: "cannot be written (errno \(errno))")
        }
        finished = true
    }
}
