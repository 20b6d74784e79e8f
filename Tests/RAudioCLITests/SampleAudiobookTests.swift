// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The sample audiobook in `samples/` (what `make demo` plays) stays valid and true to its audio.
@Suite struct SampleAudiobookTests {
    static let folder = Corpus.projectRoot.appendingPathComponent("samples/gull-rock")
    static let package = Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook")

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func manifestAndPackageValidateAgainstTheReadiumSchemas() throws {
        let validator = try #require(Corpus.toolsFolder).appendingPathComponent("readium-validate")
        let result = try Tool.run("python3", [
            validator.path, "publication",
            Self.folder.appendingPathComponent("manifest.json").path, Self.package.path,
        ])
        #expect(result.status == 0, "readium-validate said:\n\(result.output)")
    }

    @Test func manifestDurationsMatchTheDecodedAudio() throws {
        let manifest = try SampleManifest.load(Self.folder.appendingPathComponent("manifest.json"))
        #expect(manifest.readingOrder.count >= 2)
        for link in manifest.readingOrder {
            let decoded = try Tool.decodedSeconds(of: Self.folder.appendingPathComponent(link.href))
            #expect(abs(decoded - link.duration) < 0.001, "\(link.href): manifest says \(link.duration) s, decodes to \(decoded) s")
        }
        let sum = manifest.readingOrder.map(\.duration).reduce(0, +)
        #expect(abs(sum - manifest.metadata.duration) < 0.001, "metadata.duration \(manifest.metadata.duration) s, tracks add up to \(sum) s")
    }

    @Test func packageHoldsTheManifestAndStoresTheAudioUncompressed() throws {
        let listing = try Tool.run("unzip", ["-Z", "-s", Self.package.path])
        try #require(listing.status == 0, "unzip -Z failed on \(Self.package.path): \(listing.output)")
        let manifest = try SampleManifest.load(Self.folder.appendingPathComponent("manifest.json"))
        let entries = ZipListing(short: listing.output)
        #expect(entries.methods["manifest.json"] != nil, "manifest.json is not at the root of \(Self.package.lastPathComponent)")
        for link in manifest.readingOrder {
            #expect(entries.methods[link.href] == "stor", "\(link.href) in the package: \(entries.methods[link.href] ?? "missing")")
        }
    }
}

/// The parts of the sample's RWPM manifest these tests read.
struct SampleManifest: Decodable {
    struct Metadata: Decodable { var duration: Double }
    struct Link: Decodable {
        var href: String
        var duration: Double
    }
    var metadata: Metadata
    var readingOrder: [Link]

    static func load(_ url: URL) throws -> SampleManifest {
        try JSONDecoder().decode(SampleManifest.self, from: Data(contentsOf: url))
    }
}

/// Entry names and compression methods ("stor", "defX", ...) from `unzip -Z -s` output, whose file lines
/// read `-rw-r--r--  3.0 unx  130970 b- stor 26-Nov-22 00:00 01-the-storm.mp3`.
struct ZipListing {
    var methods: [String: String] = [:]

    init(short output: String) {
        for line in output.split(separator: "\n") where line.hasPrefix("-") {
            let fields = line.split(separator: " ", maxSplits: 8, omittingEmptySubsequences: true)
            if fields.count == 9 { methods[String(fields[8])] = String(fields[5]) }
        }
    }
}

/// Runs the Debian command-line tools the sample was made with.
enum Tool {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs `name` found on PATH, waits for it, and returns its exit status and merged output.
    static func run(_ name: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Decodes an MP3 (mpg123, gapless) or Ogg Vorbis file (sox) and returns its length in seconds.
    static func decodedSeconds(of url: URL) throws -> Double {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-sample-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let source: URL
        if url.pathExtension == "mp3" {
            let decode = try run("mpg123", ["--quiet", "--gapless", "-w", wav.path, url.path])
            guard decode.status == 0 else { throw ToolFailed(command: "mpg123 \(url.path)", output: decode.output) }
            source = wav
        } else {
            source = url
        }
        let samples = try run("soxi", ["-s", source.path])
        let rate = try run("soxi", ["-r", source.path])
        guard samples.status == 0, rate.status == 0,
              let count = Double(samples.output.trimmingCharacters(in: .whitespacesAndNewlines)),
              let hertz = Double(rate.output.trimmingCharacters(in: .whitespacesAndNewlines)), hertz > 0
        else { throw ToolFailed(command: "soxi \(source.path)", output: samples.output + rate.output) }
        return count / hertz
    }
}

struct ToolFailed: Error, CustomStringConvertible {
    var command: String
    var output: String
    var description: String { "\(command) failed: \(output)" }
}
