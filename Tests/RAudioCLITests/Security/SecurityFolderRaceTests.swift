// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A folder book whose writer swaps a declared file between a regular file and a symlink to a file
/// outside the folder, as fast as it can, while it is read (issue 51): the page server and the player's
/// reads never return a byte of the outside file. The file is looked up once (a symlink leaving the folder
/// refused), then opened once relative to the folder's descriptor following no symlink, and read from
/// that descriptor.
@Suite(.serialized) struct SecurityFolderRaceTests {
    static let inside = [UInt8](repeating: UInt8(ascii: "i"), count: 192 << 10)
    static let marker = Array("OUTSIDE-SECRET".utf8)

    /// A folder book (the sample track and `data.bin`, declared) and a secret file beside the folder.
    final class RacedBook {
        let root: URL
        let folder: URL
        let secret: URL
        private let stop = Locked(false)
        private let swaps = Locked(0)
        private var racer: Thread?
        private let finished = DispatchSemaphore(value: 0)

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-race-\(UUID().uuidString.prefix(8))")
            folder = root.appendingPathComponent("book")
            secret = root.appendingPathComponent("secret.bin")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var secretBytes: [UInt8] = []
            while secretBytes.count < 192 << 10 { secretBytes += SecurityFolderRaceTests.marker }
            try Data(secretBytes).write(to: secret)
            try Data(SecurityFolderRaceTests.inside).write(to: folder.appendingPathComponent("data.bin"))
            try Data(SecurityFolderRaceTests.inside).write(to: folder.appendingPathComponent(".data.orig"))
            let sample = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3")
            try FileManager.default.copyItem(at: sample, to: folder.appendingPathComponent("01-the-storm.mp3"))
            let json = """
                {"@context": "https://readium.org/webpub-manifest/context.jsonld",
                 "metadata": {"@type": "http://schema.org/Audiobook", "title": "Raced folder", "identifier": "urn:raudio:raced-folder"},
                 "readingOrder": [{"href": "01-the-storm.mp3", "type": "audio/mpeg", "duration": 24.465}],
                 "resources": [{"href": "data.bin", "type": "application/octet-stream"}]}
                """
            try Data(json.utf8).write(to: manifest)
        }

        var manifest: URL { folder.appendingPathComponent("manifest.json") }

        /// Swaps `data.bin` between the regular file and a symlink to the secret (each `rename(2)`, atomic)
        /// until `stopRacing()`.
        func startRacing() {
            let folder = folder.path, secret = secret.path, stop = stop, swaps = swaps, finished = finished
            let thread = Thread {
                let target = folder + "/data.bin", link = folder + "/.data.link", regular = folder + "/.data.regular"
                while !stop.withLock({ $0 }) {
                    unlink(link)
                    _ = symlink(secret, link)
                    _ = rename(link, target)
                    unlink(regular)
                    _ = Glibc.link(folder + "/.data.orig", regular)
                    _ = rename(regular, target)
                    swaps.withLock { $0 += 1 }
                }
                finished.signal()
            }
            racer = thread
            thread.start()
        }

        /// Stops the racer and returns how many swaps it made.
        func stopRacing() -> Int {
            stop.withLock { $0 = true }
            finished.wait()
            return swaps.withLock { $0 }
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    static func holdsOutsideBytes(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes).firstRange(of: marker) != nil
    }

    @Test func thePageServerNeverServesTheOutsideFileOfARacedFolderBook() throws {
        let book = try RacedBook()
        let (running, port) = try SecurityPageServerTests.serve(book.manifest.path)
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        running.send("pause\n")  // the 24 s track must not end (and raudio with it) before the 2,000 requests
        book.startRacing()
        var outside = 0, served = 0, refused = 0
        for _ in 0..<2_000 {
            let answer = try SecurityHTTP.get("/publication/data.bin", port: port)
            if Self.holdsOutsideBytes(answer.body) { outside += 1 }
            if answer.status == 200 { served += 1 } else { refused += 1 }
        }
        let swaps = book.stopRacing()
        print("SecurityFolderRaceTests: 2000 requests during \(swaps) swaps: \(served) served, \(refused) refused, \(outside) with outside bytes")
        #expect(outside == 0, "\(outside) of 2000 answers held bytes of the file outside the folder")
        #expect(swaps > 100, "the racer swapped only \(swaps) times")
        let calm = try SecurityHTTP.get("/publication/data.bin", port: port)
        #expect(calm.status == 200 && calm.body == Self.inside, "the file is served whole once left alone: \(calm.status)")
    }

    @Test func thePlayersReadsNeverReturnTheOutsideFileOfARacedFolderBook() throws {
        let book = try RacedBook()
        let container = try FolderContainer(url: book.folder)
        let looked = try container.resource(at: "data.bin")
        book.startRacing()
        var outside = 0, failed = 0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        for round in 0..<2_000 {
            do {
                let resource = round % 2 == 0 ? looked : try container.resource(at: "data.bin")
                if Self.holdsOutsideBytes(try resource.read(range: 0..<(64 << 10))) { outside += 1 }
                let session = try resource.openReadSession()
                for offset in stride(from: 0, to: 192 << 10, by: 64 << 10) {
                    let count = try buffer.withUnsafeMutableBytes { try session.read(into: $0, at: UInt64(offset)) }
                    if Self.holdsOutsideBytes(buffer[0..<count]) { outside += 1 }
                }
            } catch {
                failed += 1
            }
        }
        let swaps = book.stopRacing()
        print("SecurityFolderRaceTests: 2000 rounds of reads during \(swaps) swaps: \(failed) refused, \(outside) reads with outside bytes")
        #expect(outside == 0, "\(outside) reads returned bytes of the file outside the folder")
        #expect(swaps > 100, "the racer swapped only \(swaps) times")
    }

    /// A symlink whose target stays inside the folder is the user's own arrangement and is read; one that
    /// leaves the folder is refused.
    @Test func aSymlinkInsideTheFolderIsReadAndOneLeavingItIsRefused() throws {
        let book = try RacedBook()
        let inner = book.folder.appendingPathComponent("inner.bin").path
        let outer = book.folder.appendingPathComponent("outer.bin").path
        #expect(symlink("data.bin", inner) == 0 && symlink(book.secret.path, outer) == 0)
        let container = try FolderContainer(url: book.folder)
        #expect(Array(try container.resource(at: "inner.bin").read()) == Self.inside)
        #expect(throws: ResourceError.self) { try container.resource(at: "outer.bin").read() }
    }
}
