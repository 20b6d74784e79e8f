// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The reading order of a publication as items for an `AudioRenderer`: opens each track's resource
/// and a decoder for it. Called on the render thread (blocking I/O allowed there).
struct PublicationRenderSource: RenderSource {
    let publication: Publication
    let decoderFactory: any AudioDecoderFactory

    var itemCount: Int? { publication.readingOrder.count }

    func openItem(at index: Int) throws -> any AudioDecoder {
        guard publication.readingOrder.indices.contains(index) else { throw RenderSourceEnd() }
        let link = publication.readingOrder[index]
        let resource = try publication.resource(at: link.hrefWithoutFragment)
        return try decoderFactory.makeDecoder(for: resource, mediaType: link.mediaType)
    }

    func issue(for error: any Error, item index: Int) -> RenderIssue {
        let href = publication.readingOrder.indices.contains(index) ? publication.readingOrder[index].hrefWithoutFragment : "item \(index)"
        switch error {
        case let error as AudioDecoderError:
            let code = switch error.code {
            case .unsupportedFormat: "track-undecodable"
            case .corrupt: "track-corrupt"
            case .unreadable: "track-unreadable"
            case .seekFailed: "seek-failed"
            }
            return RenderIssue(item: index, code: code, message: "\(href): \(error.message)", href: href)
        case let error as ResourceError:
            let code = switch error.code {
            case .remote: "track-remote"
            case .unavailable: "track-unavailable"
            case .notFound: "track-not-found"
            case .forbidden: "track-refused"
            default: "track-unreadable"
            }
            return RenderIssue(item: index, code: code, message: "\(href): \(error.message)", href: href)
        default:
            return RenderIssue(item: index, code: "track-unreadable", message: "\(href): \(error)", href: href)
        }
    }
}
