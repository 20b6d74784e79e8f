// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// A fresh folder under the system temp dir for one test, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-resource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` at `relativePath`, creating folders on the way.
    @discardableResult
    func write(_ data: Data, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Runs a Python 3 script with this folder as working directory; fails the test if it fails.
    func runPython(_ script: String) throws {
        try run("/usr/bin/env", ["python3", "-c", script])
    }

    /// Runs `executable` with `arguments` in this folder and requires exit status 0.
    func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = url
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(description: "\(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }

    struct ToolFailed: Error, CustomStringConvertible { var description: String }
}

/// Deterministic pseudo-random bytes (xorshift), compressible only a little, for range tests.
func patternBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBufferPointer { buffer in
        for index in 0..<count {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            // Mix text-like runs in so DEFLATE actually compresses.
            buffer[index] = index % 7 == 0 ? UInt8(truncatingIfNeeded: state) : UInt8(0x61 + (index / 13) % 5)
        }
    }
    return Data(bytes)
}

/// The `ResourceError` that `body` throws, or nil when it throws nothing (or another error).
func caughtResourceError<T>(_ body: () throws -> T) -> ResourceError? {
    do {
        _ = try body()
        return nil
    } catch let error as ResourceError {
        return error
    } catch {
        return nil
    }
}
