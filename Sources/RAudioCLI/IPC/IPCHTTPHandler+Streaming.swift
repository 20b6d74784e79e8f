// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import NIOCore
import NIOHTTP1
import RAudioPlayer
import ReadiumShared

extension IPCHTTPHandler {
    /// The size of each read of a streamed resource: what one client costs in memory.
    static let streamChunkSize: UInt64 = 64 << 10

    /// Sends `stream` from `offset` on: one chunk read (from the stream's one read session) on a global
    /// queue, written, and the next read
    /// only once the kernel took it, so a client holds at most one chunk in raudio's memory however
    /// large the resource and however slowly it reads. A client that takes nothing for
    /// `limits.sendTimeout` is dropped; a read that fails ends the connection (the length was promised).
    ///
    /// Called on the channel's event loop.
    static func streamBody(_ stream: ReadAlongSite.ResourceStream, from offset: UInt64, limits: IPCLimits, to channel: any Channel) {
        guard offset < stream.range.upperBound else { return finish(channel) }
        guard channel.isActive else { return }
        DispatchQueue.global().async {
            let end = min(stream.range.upperBound, offset + streamChunkSize)
            let data: Data
            do {
                data = try stream.reader.read(at: offset, count: Int(end - offset))
            } catch {
                StandardStreams.printError("raudio: warning: --web: \(error)")
                channel.close(promise: nil)
                return
            }
            channel.eventLoop.execute {
                guard !data.isEmpty else {
                    StandardStreams.printError("raudio: warning: --web: \(stream.resource.href) ended at byte \(offset), before its length")
                    channel.close(promise: nil)
                    return
                }
                let stall = channel.eventLoop.scheduleTask(in: limits.sendTimeout) { channel.close(promise: nil) }
                let chunk = HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: data)))
                channel.writeAndFlush(chunk).whenComplete { result in
                    stall.cancel()
                    guard case .success = result else { return channel.close(promise: nil) }
                    streamBody(stream, from: offset + UInt64(data.count), limits: limits, to: channel)
                }
            }
        }
    }
}
