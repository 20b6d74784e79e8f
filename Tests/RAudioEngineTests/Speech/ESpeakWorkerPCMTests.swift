// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import Testing

/// The PCM of a worker's answer over a real pipe: eSpeak NG's 16-bit samples go across as Int16 and
/// come back as the Float32 the in-process engine would have made at the request's volume.
@Suite struct ESpeakWorkerPCMTests {
    /// Writes `line`, a newline and `samples` as a worker does, on a thread of its own (the pipe holds
    /// less than that), and returns the reading end.
    static func answer(_ line: String, _ samples: [Float], cutAfter: Int? = nil) -> Int32 {
        var descriptors: [Int32] = [0, 0]
        _ = pipe(&descriptors)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        let thread = Thread {
            _ = Array((line + "\n").utf8).withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            _ = ESpeakWorkerPCM.write(Array(samples.prefix(cutAfter ?? samples.count))) { bytes in
                var written = 0
                while written < bytes.count {
                    let count = write(writeEnd, bytes.baseAddress! + written, bytes.count - written)
                    guard count > 0 else { return false }
                    written += count
                }
                return true
            }
            close(writeEnd)
        }
        thread.start()
        return readEnd
    }

    /// Every 16-bit value, as eSpeak NG's callback hands them to raudio at volume 1.
    static let spoken: [Float] = (Int(Int16.min)...Int(Int16.max)).map { Float($0) / 32768 }

    @Test(arguments: [1.0, 0.5, 1.7])
    func samplesComeBackAsTheInProcessEngineScalesThem(volume: Double) throws {
        let descriptor = Self.answer("{\"samples\": \(Self.spoken.count)}", Self.spoken)
        defer { close(descriptor) }
        let reader = PiperPipeReader(descriptor: descriptor)
        // The header line is read first; part of the PCM is then in the reader's buffer, the rest in the pipe.
        #expect(reader.readLine() == "{\"samples\": \(Self.spoken.count)}")
        let samples = try #require(reader.readPCM16Samples(Self.spoken.count, volume: volume))
        let scale = Float(volume) / 32768
        let expected = (Int(Int16.min)...Int(Int16.max)).map { Float($0) * scale }
        #expect(samples.count == expected.count)
        let differing = zip(samples, expected).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) samples differ")
        #expect(reader.readLine() == nil)
    }

    @Test func aPipeThatEndsInsideThePCMReadsAsNil() throws {
        let descriptor = Self.answer("{}", Self.spoken, cutAfter: ESpeakWorkerPCM.chunkSamples + 10)
        defer { close(descriptor) }
        let reader = PiperPipeReader(descriptor: descriptor)
        _ = reader.readLine()
        #expect(reader.readPCM16Samples(Self.spoken.count, volume: 1) == nil)
    }
}
