// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where the listening state lives: `--state-dir`, else `$RAUDIO_STATE_DIR`, else
/// `$XDG_STATE_HOME/raudio`, else `~/.local/state/raudio` (the XDG Base Directory default).
public enum StateDirectory {
    /// The state file's name inside the directory.
    public static let fileName = "state.sqlite3"

    public static func resolve(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option) }
        if let directory = environment["RAUDIO_STATE_DIR"], !directory.isEmpty { return URL(fileURLWithPath: directory) }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("raudio")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/raudio")
    }
}
