// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import Testing

/// A decoder that cannot read its resource says so in its own terms and keeps the resource's error, and
/// what caused that, as the cause: the chain from the network to the track is not lost.
@Suite struct DecoderErrorCauseTests {
    /// A remote track whose server cannot be reached: every read fails.
    struct UnreachableResource: Resource {
        let href = "http://books.example/b.ogg"
        var isRandomAccessCheap: Bool { true }
        var isRemote: Bool { true }
        var error: ResourceError {
            ResourceError(.remoteUnreachable, href: href, message: "cannot connect to the server (Couldn't connect to server)",
                          cause: HTTPError(.hostUnreachable, url: href, message: "cannot connect to the server (Couldn't connect to server)", libraryStatus: 7))
        }
        func length() throws(ResourceError) -> UInt64 { throw error }
        func read(range: Range<UInt64>?) throws(ResourceError) -> Data { throw error }
    }

    @Test func unreachableResourceIsTheCauseOfTheDecoderError() throws {
        let resource = UnreachableResource()
        let error = try #require(throws: AudioDecoderError.self) {
            _ = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: MediaType("audio/ogg"))
        }
        #expect(error.code == .sourceUnreachable)
        let cause = try #require(error.cause as? ResourceError, "the resource error is lost: \(error.detailedDescription())")
        #expect(cause == resource.error)
        #expect((cause.cause as? HTTPError)?.libraryStatus == 7)
        // Made where the decoder met the failure, not in the error type's file.
        #expect(error.location.file.hasPrefix("RAudioEngine/"), "\(error.location)")

        let detail = error.detailedDescription()
        let levels = ["AudioDecoderError track-unreachable: http://books.example/b.ogg:",
                      "cause: ResourceError remote-unreachable:", "cause: HTTPError host-unreachable:"]
        let positions = levels.map { detail.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(detail)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(detail)")
    }
}
