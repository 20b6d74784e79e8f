// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension CommandRefusal {
    /// Decodes a `go` command's locator and hands it to `go`; a bad locator, or an error `go` throws
    /// (an href not in the publication), is refused as `command-bad-value`.
    public static func go(to locatorJSON: Data, _ go: @Sendable (Locator) async throws -> Void) async throws(CommandRefusal) {
        do {
            let locator = try Locator(jsonString: String(decoding: locatorJSON, as: UTF8.self), source: "go")
            try await go(locator)
        } catch {
            throw CommandRefusal(code: "command-bad-value", message: "go: \(error)")
        }
    }
}
