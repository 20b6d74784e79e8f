// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files of a directory tree on disk, addressed by their path relative to the root.
///
/// Every lookup resolves symlinks with `realpath(3)` and refuses (`.forbidden`) what lands outside the
/// root: `../`, and symlinks whose target leaves the folder. A symlink whose target stays inside the
/// folder is followed at lookup; the file it names is then opened relative to the folder's descriptor,
/// opened once at `init`, following no symlink at all (`FolderRoot`), so a file swapped for a symlink
/// after the lookup is refused rather than read. The listing is taken once, at `init`.
public struct FolderContainer: Container {
    public let sourceURL: URL
    /// The root with every symlink resolved; lookups must stay under it.
    public let resolvedRootPath: String
    public let entries: [String]
    /// The folder, open: files are opened relative to it.
    let root: FolderRoot

    /// Lists the folder at `url` recursively (regular files only, sorted by byte order of the href).
    ///
    /// Throws `.notFound` when `url` does not exist and `.badData` when it is not a folder.
    public init(url: URL) throws(ResourceError) {
        sourceURL = url
        guard let resolved = FolderContainer.realPath(url.path) else {
            throw ResourceError(.notFound, href: url.path, message: "does not exist")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ResourceError(.badData, href: url.path, message: "is not a folder")
        }
        resolvedRootPath = resolved
        guard let root = FolderRoot(path: resolved) else {
            throw ResourceError(.io, href: url.path, message: "cannot be opened as a folder: \(String(cString: strerror(errno)))")
        }
        self.root = root
        var found: [String] = []
        FolderContainer.list(folder: resolved, prefix: "", root: resolved, into: &found)
        entries = found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    public func resource(at href: String) throws(ResourceError) -> any Resource {
        let normalized = try Href(href)
        do {
            return try resource(path: normalized.path, requested: href)
        } catch where error.code == .notFound && href.contains("%") {
            // A file may really be named with a '%' ("100%.mp3").
            let literal = try Href(href, decodingPercentEscapes: false)
            return try resource(path: literal.path, requested: href)
        }
    }

    private func resource(path: String, requested: String) throws(ResourceError) -> any Resource {
        guard !path.isEmpty else {
            throw ResourceError(.notFound, href: requested, message: "is the root folder, not a file")
        }
        let candidate = resolvedRootPath + "/" + path
        guard let resolved = FolderContainer.realPath(candidate) else {
            throw ResourceError(.notFound, href: requested, message: "does not exist in \(sourceURL.path)")
        }
        guard FolderContainer.isInside(resolved, root: resolvedRootPath) else {
            throw ResourceError(.forbidden, href: requested, message: "is a link that leaves the publication's folder")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ResourceError(.notFound, href: requested, message: "is not a regular file in \(sourceURL.path)")
        }
        let relative = resolvedRootPath == "/" ? String(resolved.dropFirst()) : String(resolved.dropFirst(resolvedRootPath.count + 1))
        return FileResource(root: root, relativePath: relative, href: path)
    }

    /// `realpath(3)`, or nil when the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    static func isInside(_ path: String, root: String) -> Bool {
        root == "/" ? path.hasPrefix("/") : (path == root || path.hasPrefix(root + "/"))
    }

    /// Appends the hrefs of regular files under `folder`; symlinks count only when they resolve to a
    /// regular file inside `root` (symlinked folders are not followed, so cycles cannot loop).
    private static func list(folder: String, prefix: String, root: String, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            let path = folder + "/" + name
            let href = prefix + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                list(folder: path, prefix: href + "/", root: root, into: &found)
            case S_IFREG:
                found.append(href)
            case S_IFLNK:
                guard let target = realPath(path), isInside(target, root: root) else { continue }
                var targetInfo = stat()
                if stat(target, &targetInfo) == 0, (targetInfo.st_mode & S_IFMT) == S_IFREG {
                    found.append(href)
                }
            default:
                continue
            }
        }
    }
}
