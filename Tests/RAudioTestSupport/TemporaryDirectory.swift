// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A temporary folder removed at the end of the test.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
