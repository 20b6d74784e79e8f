// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// `--open`: shows a URL in the desktop's browser with `xdg-open`, without waiting for it.
enum DesktopBrowser {
    /// Starts `xdg-open url` (its output discarded); says on stderr when it cannot.
    static func open(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try ChildProcessLaunch.run(process)
        } catch {
            StandardStreams.printError("raudio: warning: --open: cannot start xdg-open (\(error)); open \(url) in a browser")
        }
    }
}
