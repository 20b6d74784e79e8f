// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The page server's refusals name the request, never where the book lies on disk (issue 51: a 404 for a
/// declared file that is missing or not a file said "does not exist in /home/...").
@Suite(.serialized) struct SecurityPagePathTests {
    @Test func aNotFoundAnswerNamesNoLocalPath() throws {
        let book = try SecurityPageServerTests.Book()
        let (running, port) = try SecurityPageServerTests.serve(book.manifestPath)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        // Declared by the manifest, then gone: one removed, one a folder, one a link leaving the book.
        try FileManager.default.removeItem(at: book.folder.appendingPathComponent("data.bin"))
        try FileManager.default.removeItem(at: book.folder.appendingPathComponent("big.bin"))
        try FileManager.default.createDirectory(at: book.folder.appendingPathComponent("big.bin"), withIntermediateDirectories: false)
        let folder = book.folder.path
        for path in ["/publication/data.bin", "/publication/big.bin", "/publication/undeclared.bin", "/nothing", "/raudio/none.js"] {
            let answer = try SecurityHTTP.get(path, port: port)
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 404, "\(path): \(answer.status)")
            #expect(!body.contains(folder) && !body.contains(FileManager.default.temporaryDirectory.path), "\(path): \(body)")
            #expect(body.contains(path), "the request is named: \(body)")
        }
    }
}
