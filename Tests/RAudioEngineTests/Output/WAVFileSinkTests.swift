// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import Testing

@Suite struct WAVFileSinkTests {
    let format = PCMFormat(sampleRate: 22_050, channelCount: 2)

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func partialFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }
    }

    @Test func writesExactSamplesAndHeaderThenRenames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.wav")
        let sink = try WAVFileSink(url: target)
        try sink.open(format: format)
        let samples: [Float] = [1.5, -1.5, 0.5, 0, -0.25, 1e-6] + ToneAnalysis.sine(frequency: 440, sampleRate: 22_050, channels: 2, seconds: 0.5)
        try samples.withUnsafeBufferPointer { try sink.write($0) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try partialFiles(in: folder).count == 1)
        try sink.close()
        #expect(try partialFiles(in: folder).isEmpty)

        let data = try Data(contentsOf: target)
        #expect(data.count == 44 + samples.count * 2)
        func u32(_ at: Int) -> UInt32 { data[at..<at + 4].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) } }
        func u16(_ at: Int) -> UInt16 { UInt16(data[at]) | UInt16(data[at + 1]) << 8 }
        #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF")
        #expect(u32(4) == UInt32(36 + samples.count * 2))
        #expect(String(decoding: data[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(u16(20) == 1 && u16(22) == 2 && u32(24) == 22_050 && u32(28) == 22_050 * 4 && u16(32) == 4 && u16(34) == 16)
        #expect(String(decoding: data[36..<40], as: UTF8.self) == "data")
        #expect(u32(40) == UInt32(samples.count * 2))
        let first = (0..<6).map { Int16(bitPattern: u16(44 + 2 * $0)) }
        #expect(first == [32767, -32767, 16384, 0, -8192, 0])
    }

    @Test func samplesAreRoundedToTheNearest16BitValueWithTiesAwayFromZero() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("rounding.wav")
        let sink = try WAVFileSink(url: target)
        try sink.open(format: PCMFormat(sampleRate: 22_050, channelCount: 1))
        // eSpeak NG's samples at three volumes, exact halves between two 16-bit values, and values past ±1.
        var samples: [Float] = []
        for volume: Float in [1, 0.8, 1.3] { samples += (-32768...32767).map { Float($0) * (volume / 32768) } }
        samples += (-40...40).map { (Float($0) + 0.5) / 32767 } + [2, -2, 1, -1, 0, -0.0, .leastNonzeroMagnitude]
        try samples.withUnsafeBufferPointer { try sink.write($0) }
        try sink.close()
        let data = try Data(contentsOf: target)
        let written = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let expected = samples.map { Int16((min(max($0, -1), 1) * 32767).rounded(.toNearestOrAwayFromZero)) }
        #expect(written.count == expected.count)
        let differing = zip(written, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(differing.isEmpty, "\(differing.count) differ, first \(differing.prefix(3).map { "\(samples[$0.offset]): \($0.element)" })")
    }

    @Test func anotherFormatAfterOpenIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sink = try WAVFileSink(url: folder.appendingPathComponent("out.wav"))
        try sink.open(format: format)
        try sink.open(format: format)
        #expect(throws: AudioSinkError.self) { try sink.open(format: PCMFormat(sampleRate: 44_100, channelCount: 2)) }
        do { try sink.open(format: PCMFormat(sampleRate: 44_100, channelCount: 1)) } catch { #expect(error.code == .outputFormatUnsupported) }
    }

    @Test func missingFolderCannotBeCreatedAndMessageNamesFile() throws {
        let target = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/book.wav")
        do {
            _ = try WAVFileSink(url: target)
            Issue.record("expected .cannotCreate")
        } catch {
            #expect(error.code == .cannotCreate)
            #expect(error.message.contains(target.path))
        }
    }

    @Test func unclosedSinkLeavesNoFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let sink = try WAVFileSink(url: folder.appendingPathComponent("out.wav"))
            try sink.open(format: format)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(.enabled(if: TmpfsMount.isPossible, "mount -t tmpfs is not permitted here"))
    func readOnlyFolderCannotBeCreated() throws {
        try TmpfsMount.with(options: "ro,size=64k") { folder in
            do {
                _ = try WAVFileSink(url: folder.appendingPathComponent("out.wav"))
                Issue.record("expected .cannotCreate")
            } catch {
                #expect((error as? AudioSinkError)?.code == .cannotCreate)
            }
        }
    }

    @Test(.enabled(if: TmpfsMount.isPossible, "mount -t tmpfs is not permitted here"))
    func fullDiskFailsWriteAndRemovesPartialFile() throws {
        try TmpfsMount.with(options: "size=64k") { folder in
            let sink = try WAVFileSink(url: folder.appendingPathComponent("out.wav"))
            try sink.open(format: format)
            let second = ToneAnalysis.sine(frequency: 440, sampleRate: 22_050, channels: 2, seconds: 1)
            var failure: AudioSinkError?
            for _ in 0..<4 where failure == nil {
                do { try second.withUnsafeBufferPointer { try sink.write($0) } } catch { failure = error as? AudioSinkError }
            }
            #expect(failure?.code == .writeFailed)
            #expect(failure?.message.contains("out.wav") == true)
            #expect(throws: AudioSinkError.self) { try sink.close() }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test func nullSinkCountsFramesAndHasNothingPending() throws {
        let sink = NullSink()
        try sink.open(format: format)
        try [Float](repeating: 0.1, count: 200).withUnsafeBufferPointer { try sink.write($0) }
        #expect(sink.framesWritten == 100)
        #expect(sink.pendingFrames == 0)
    }
}

/// A small tmpfs mounted for one test, to fill a disk or make a read-only folder for real.
enum TmpfsMount {
    static let isPossible: Bool = {
        (try? with(options: "size=4k") { _ in }) != nil
    }()

    static func with(options: String, _ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
        defer { _ = run("/bin/umount", [folder.path]) }
        try body(folder)
    }

    private static func run(_ path: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
