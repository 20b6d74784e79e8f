// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where raudio finds the data it ships beside the binary (voice presets, the read-along page): in
/// an installed tree, or in the source tree during development and tests.
public enum InstalledDataFolder {
    /// The folders searched for `name`, in order:
    ///
    /// 1. the folder in the environment variable `variable` (when set and not empty);
    /// 2. `<folder of the raudio binary>/../share/raudio/<name>`: an installed raudio, whatever its prefix
    ///    (`make install PREFIX=...` puts the binary in `PREFIX/bin` and the data in `PREFIX/share/raudio`);
    /// 3. `<name>/` of the source tree, found by walking up from the binary to a `Package.swift`
    ///    (a `swift build` binary);
    /// 4. `raudio/<name>` in each folder of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`): the
    ///    data of an installed raudio for a binary copied out of its `PREFIX/bin`;
    /// 5. `<name>/` of the source tree found from this source file's location (tests).
    public static func searchPath(for name: String, variable: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executable: URL? = currentExecutable) -> [URL] {
        var folders: [URL] = []
        if let value = environment[variable], !value.isEmpty {
            folders.append(URL(fileURLWithPath: value))
        }
        if let executable {
            let binFolder = executable.deletingLastPathComponent()
            folders.append(binFolder.appendingPathComponent("../share/raudio/\(name)").standardizedFileURL)
            if let root = packageRoot(above: binFolder) { folders.append(root.appendingPathComponent(name)) }
        }
        for dataFolder in dataFolders(environment: environment) {
            folders.append(URL(fileURLWithPath: dataFolder).appendingPathComponent("raudio/\(name)").standardizedFileURL)
        }
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent() // Support
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() // RAudioEngine, Sources, root
        if let root = packageRoot(above: sourceRoot) { folders.append(root.appendingPathComponent(name)) }
        var unique: [URL] = []
        for folder in folders where !unique.contains(folder) { unique.append(folder) }
        return unique
    }

    /// The first folder of `searchPath(for:variable:)` that exists, if any.
    public static func find(_ name: String, variable: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: URL? = currentExecutable) -> URL? {
        searchPath(for: name, variable: variable, environment: environment, executable: executable).first(where: isFolder)
    }

    /// The running executable (`/proc/self/exe`, else `argv[0]`), symlinks resolved.
    public static var currentExecutable: URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath()
    }

    public static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The absolute folders of `$XDG_DATA_DIRS`, or the XDG Base Directory default when it is unset or empty.
    private static func dataFolders(environment: [String: String]) -> [String] {
        let folders = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return folders.isEmpty ? ["/usr/local/share", "/usr/share"] : folders
    }

    private static func packageRoot(above folder: URL) -> URL? {
        var current = folder.standardizedFileURL
        while current.path != "/" {
            if FileManager.default.fileExists(atPath: current.appendingPathComponent("Package.swift").path) { return current }
            current.deleteLastPathComponent()
        }
        return nil
    }
}
