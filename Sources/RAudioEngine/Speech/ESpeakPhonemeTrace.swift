// SPDX-License-Identifier: GPL-3.0-or-later
import CESpeakNG
#if canImport(Glibc)
import Glibc
#endif

/// eSpeak NG's trace of the phonemes it speaks, written into memory for the duration of one `espeak_Synth`
/// (`espeak_SetPhonemeTrace` with an `open_memstream` stream). eSpeak thread only.
final class ESpeakPhonemeTrace {
    private var buffer: UnsafeMutablePointer<CChar>?
    private var size = 0
    private var stream: UnsafeMutablePointer<FILE>?

    /// Starts tracing: mnemonics (mode 1) with `_` between the phonemes of a word.
    init() {
        stream = open_memstream(&buffer, &size)
        if let stream { espeak_SetPhonemeTrace(1 | (0x5F << 8), stream) }
    }

    /// Stops tracing and returns what was traced.
    func finish() -> String {
        espeak_SetPhonemeTrace(0, nil)
        guard let stream else { return "" }
        fclose(stream)
        self.stream = nil
        defer {
            free(buffer)
            buffer = nil
        }
        return buffer.map { String(cString: $0) } ?? ""
    }

    deinit {
        if stream != nil { _ = finish() }
    }
}
