// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The publication's cover, written to a file for desktop widgets (`mpris:artUrl` takes a URL, not bytes).
///
/// Written once, on the MPRIS thread, to `$XDG_RUNTIME_DIR/raudio/cover-<pid>.<ext>` (a folder only the
/// user can read; else one in the temporary directory), mode 0600; removed when the session ends.
final class MPRISCover: Sendable {
    private let resource: any Resource
    private let fileExtension: String
    private let written = Locked<URL?>(nil)

    /// The cover of `publication` (a link with rel `cover`, as `raudio info --cover` finds it), if any.
    init?(publication: Publication) {
        guard let link = publication.manifest.coverLink,
              let resource = try? publication.container.resource(at: link.hrefWithoutFragment) else { return nil }
        self.resource = resource
        fileExtension = Self.fileExtension(type: link.type, href: link.hrefWithoutFragment)
    }

    /// Writes the file (once) and returns its URL; nil when the cover cannot be read or written.
    func write(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let url = written.withLock({ $0 }) { return url }
        guard let data = try? resource.read(range: nil), !data.isEmpty else { return nil }
        let folder: URL
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            folder = URL(fileURLWithPath: runtime).appendingPathComponent("raudio")
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-\(getuid())")
        }
        let file = folder.appendingPathComponent("cover-\(getpid()).\(fileExtension)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return nil }
            // createFile's attributes are applied after the file is written under the umask: make sure.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            return nil
        }
        written.withLock { $0 = file }
        return file
    }

    /// Removes the file, if it was written.
    func remove() {
        guard let file = written.withLock({ url in defer { url = nil }; return url }) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    private static func fileExtension(type: String?, href: String) -> String {
        switch type?.lowercased() {
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/png": return "png"
        case "image/webp": return "webp"
        case "image/gif": return "gif"
        case "image/svg+xml": return "svg"
        default:
            let fromHref = (href as NSString).pathExtension.lowercased()
            return fromHref.isEmpty || fromHref.count > 5 ? "img" : fromHref
        }
    }
}
