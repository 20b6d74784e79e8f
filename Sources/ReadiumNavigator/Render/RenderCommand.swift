// SPDX-License-Identifier: GPL-3.0-or-later
/// Orders for the render thread, queued by `AudioRenderer` and performed in order between buffers.
enum RenderCommand: Sendable {
    case load(item: Int, seconds: Double, endSeconds: Double?, generation: UInt64)
    case start
    case pause
    case resume
    case flush
    case stop
    case release
    case setSpeed(Double)
    case setVolume(Double)
    case setStopAfter(Double?)
    case shutdown
}
