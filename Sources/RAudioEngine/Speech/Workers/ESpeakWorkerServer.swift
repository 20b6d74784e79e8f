// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

/// The worker side of `ESpeakWorkerPool`: `raudio espeak-worker` speaks the requests on its stdin with
/// an `ESpeakEngine` and writes each answer to its stdout (`ESpeakWorkerMessage`).
///
/// Runs on the calling thread (the worker process's main thread) until stdin ends: the pool closed it,
/// or raudio exited, however it exited. SIGINT and SIGHUP are ignored, so a Ctrl-C at the terminal
/// leaves the stopping to raudio, which then closes the pipes; SIGPIPE too, so a raudio gone away
/// shows as a failed write and the worker exits.
public enum ESpeakWorkerServer {
    /// Serves requests from `input` to `output` until `input` ends; returns the process's exit status
    /// (0, or 69 when eSpeak NG could not start, after saying so on `output`).
    public static func run(presets: VoicePresets, input: Int32 = 0, output: Int32 = 1) -> Int32 {
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let engine: ESpeakEngine
        do {
            engine = try ESpeakEngine(presets: presets)
        } catch {
            _ = writeAll(output, Array((ESpeakWorkerMessage.startupFailure(error) + "\n").utf8))
            return 69
        }
        guard writeAll(output, Array((ESpeakWorkerMessage.ready(sampleRate: engine.format.sampleRate) + "\n").utf8)) else { return 0 }
        let reader = PiperPipeReader(descriptor: input)
        while let line = reader.readLine() {
            // Spoken at volume 1: the answer carries eSpeak NG's own 16-bit samples, and raudio applies
            // the volume as it reads them (`ESpeakWorkerPCM`).
            guard var utterance = ESpeakWorkerMessage.parseRequest(line) else {
                guard writeAll(output, Array((ESpeakWorkerMessage.badRequest(line) + "\n").utf8)) else { return 0 }
                continue
            }
            utterance.volume = 1
            let result: Result<SynthesizedUtterance, TTSError>
            do {
                result = .success(try engine.synthesizeBlocking(utterance))
            } catch {
                result = .failure(error)
            }
            guard writeAll(output, Array((ESpeakWorkerMessage.answerHeader(for: result) + "\n").utf8)) else { return 0 }
            if case .success(let spoken) = result {
                let written = ESpeakWorkerPCM.write(spoken.samples) { writeAll(output, $0) }
                PCMSampleBufferPool.speech.recycle(spoken.samples)
                guard written else { return 0 }
            }
        }
        return 0
    }

    /// Wraps `write(2)` until every byte is written; false when the descriptor fails (the reader left).
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
