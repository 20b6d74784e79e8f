// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import RAudioEngine

/// Where an installed or a user's raudio finds the Python environment and worker of Piper voices.
@Suite struct PiperRuntimeTests {
    private func makeEnvironment(in folder: URL) throws -> URL {
        let venv = folder.appendingPathComponent("raudio/piper-venv")
        try FileManager.default.createDirectory(at: venv.appendingPathComponent("bin"), withIntermediateDirectories: true)
        return venv
    }

    @Test func theUsersOwnEnvironmentInXDGDataHomeIsFound() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("piper-runtime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let venv = try makeEnvironment(in: dataHome)
        let environment = ["XDG_DATA_HOME": dataHome.path]
        #expect(PiperRuntime.userEnvironmentFolder(environment: environment)?.standardizedFileURL.path == venv.standardizedFileURL.path)
        let homeOnly = ["HOME": "/home/reader"]
        #expect(PiperRuntime.userEnvironmentFolder(environment: homeOnly)?.path == "/home/reader/.local/share/raudio/piper-venv")
        #expect(PiperRuntime.userEnvironmentFolder(environment: ["XDG_DATA_HOME": "relative"]) == nil)
    }

    @Test func anInstalledTreesEnvironmentIsFoundBesideItsBinary() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("piper-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let venv = try makeEnvironment(in: prefix.appendingPathComponent("share"))
        let binary = prefix.appendingPathComponent("bin/raudio")
        let found = PiperRuntime.environmentFolder(environment: ["XDG_DATA_DIRS": "/nonexistent"], executable: binary)
        // An installed tree's own environment comes before the source tree's .venv-piper (found from this file).
        #expect(found?.standardizedFileURL.path == venv.standardizedFileURL.path)
        #expect(PiperRuntime.environmentFolder(environment: ["RAUDIO_PIPER_VENV": "/opt/voices-env"], executable: binary)?.path == "/opt/voices-env")
    }
}
