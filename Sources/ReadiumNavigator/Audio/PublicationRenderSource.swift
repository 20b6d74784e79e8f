// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The reading order of a publication as items for an `AudioRenderer`: opens each track's resource
/// and a decoder for it. Called on the render thread (blocking I/O allowed there), and for remote
/// tracks on the opening thread of `ItemOpening` too.
struct PublicationRenderSource: RenderSource {
    let publication: Publication
    let decoderFactory: any AudioDecoderFactory

    /// How long before the end of a track the next one is opened when it is remote: enough for its
    /// first request through a few retries (0.25 + 0.5 + 1 + 2 s of backoff) on a slow network.
    static let remoteLeadSeconds = 20.0

    var itemCount: Int? { publication.readingOrder.count }

    func openItem(at index: Int) throws -> any AudioDecoder {
        guard publication.readingOrder.indices.contains(index) else { throw RenderSourceEnd() }
        let link = publication.readingOrder[index]
        let resource = try publication.resource(at: link.hrefWithoutFragment)
        return try decoderFactory.makeDecoder(for: resource, mediaType: link.mediaType)
    }

    /// Remote tracks are opened near the end of the previous one, off the render thread; local ones at once.
    func preopening(ofItem index: Int) -> ItemPreopening {
        guard publication.readingOrder.indices.contains(index),
              let resource = try? publication.resource(at: publication.readingOrder[index].hrefWithoutFragment),
              resource.isRemote else { return .atStart }
        let previous = publication.readingOrder.indices.contains(index - 1) ? publication.readingOrder[index - 1].duration : nil
        return .nearEnd(leadSeconds: Self.remoteLeadSeconds, previousDuration: previous)
    }

    /// A track that opens but has no audio from its start (an M4B whose media data was never written).
    func emptyItemIssue(at index: Int) -> RenderIssue? {
        let href = publication.readingOrder.indices.contains(index) ? publication.readingOrder[index].hrefWithoutFragment : "item \(index)"
        return RenderIssue(item: index, code: .trackCorrupt,
                           message: "\(href): has no audio data (the file may be cut short or not fully downloaded)", href: href)
    }

    func issue(for error: any Error, item index: Int) -> RenderIssue {
        let href = publication.readingOrder.indices.contains(index) ? publication.readingOrder[index].hrefWithoutFragment : "item \(index)"
        switch error {
        case let error as AudioDecoderError:
            let code: NavigatorIssue.Code = switch error.code {
            case .trackUnsupported: .trackUndecodable
            case .corrupt: .trackCorrupt
            case .sourceUnreachable: .trackUnreachable
            case .seekFailed: .seekFailed
            default: .trackUnreadable
            }
            return RenderIssue(item: index, code: code, message: "\(href): \(error.message)", href: href,
                               endsPlayback: error.code == .sourceUnreachable, cause: error)
        case let error as ResourceError:
            let code: NavigatorIssue.Code = switch error.code {
            case .remote: .trackRemote
            case .remoteUnavailable: .trackUnavailable
            case .remoteUnreachable: .trackUnreachable
            case .notFound: .trackNotFound
            case .forbidden: .trackRefused
            default: .trackUnreadable
            }
            return RenderIssue(item: index, code: code, message: "\(href): \(error.message)", href: href,
                               endsPlayback: error.code == .remoteUnreachable, cause: error)
        default:
            return RenderIssue(item: index, code: .trackUnreadable, message: "\(href): \(error)", href: href, cause: error)
        }
    }
}
