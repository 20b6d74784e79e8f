// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// What `play` or `speak --output wav:FILE` wrote, said on stderr when the session ends, as `render` says
/// what it wrote: "wrote FILE: 1:01 of audio (2718764 bytes) in 0:03". With the terminal player it is the
/// last line, after the player's own (which names the place, not the file).
struct WrittenFileReport {
    let path: String
    /// When the session started: the time taken is counted from it, and a file not written since is not
    /// reported (a session that failed before its output opened wrote nothing).
    let started: Date

    /// The line, or nil when the session wrote no file.
    func line(now: Date = Date()) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let bytes = (attributes[.size] as? NSNumber)?.intValue,
              let modified = attributes[.modificationDate] as? Date, modified >= started.addingTimeInterval(-1) else { return nil }
        let audio = Self.audioSeconds(ofWAVAt: path, fileBytes: bytes).map { PlaceDescription.clock($0) + " of audio " } ?? ""
        return "wrote \(path): \(audio)(\(bytes) bytes) in \(PlaceDescription.clock(now.timeIntervalSince(started)))"
    }

    /// Writes `line()` to stderr, when there is one.
    func say() {
        if let line = line() { StandardStreams.printError(line) }
    }

    /// The seconds of audio in a WAV file with the canonical 44-byte header `WAVFileSink` writes: its
    /// sample bytes over its byte rate; nil for anything else.
    static func audioSeconds(ofWAVAt path: String, fileBytes: Int) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 44), header.count == 44,
              header.prefix(4).elementsEqual("RIFF".utf8), header[8..<16].elementsEqual("WAVEfmt ".utf8) else { return nil }
        let byteRate = header[28..<32].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard byteRate > 0, fileBytes >= 44 else { return nil }
        return Double(fileBytes - 44) / Double(byteRate)
    }
}
