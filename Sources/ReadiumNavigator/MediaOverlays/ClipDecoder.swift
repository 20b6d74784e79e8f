// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Presents the frames `begin..<end` of a shared decoder as a decoder of its own (one media overlay clip).
///
/// Consecutive clips of one audio file share one underlying decoder: a clip seeks only when the
/// shared decoder is not already at the frame it needs, so a clip that starts where the previous one
/// ended plays on without a seek and without a gap. The seek happens lazily at the first `read`, so a
/// clip opened ahead (while the previous clip still plays) does not disturb it. Render thread only.
final class ClipDecoder: AudioDecoder {
    let shared: any AudioDecoder
    let beginFrame: Int64
    /// Nil: to the end of the file.
    let endFrame: Int64?
    private(set) var currentFrame: Int64 = 0

    init(shared: any AudioDecoder, beginFrame: Int64, endFrame: Int64?) {
        self.shared = shared
        let begin = max(beginFrame, 0)
        self.beginFrame = begin
        self.endFrame = endFrame.map { max($0, begin) }
    }

    var format: PCMFormat { shared.format }

    var frameCount: Int64? {
        let fileEnd = shared.frameCount
        guard let end = endFrame.map({ min($0, fileEnd ?? $0) }) ?? fileEnd else { return nil }
        return max(end - beginFrame, 0)
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        let wanted = beginFrame + currentFrame
        if shared.currentFrame != wanted { try shared.seek(toFrame: wanted) }
        var frames = maxFrames
        if let endFrame { frames = Int(min(Int64(frames), max(endFrame - wanted, 0))) }
        guard frames > 0 else { return 0 }
        let read = try shared.read(into: buffer, maxFrames: frames)
        currentFrame += Int64(read)
        return read
    }

    func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        currentFrame = min(max(frame, 0), frameCount ?? .max)
    }
}
