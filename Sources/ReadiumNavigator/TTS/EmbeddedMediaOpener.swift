// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Opens the media of an `audio` or `video` element met while reading aloud: the first of its sources
/// (the `src` attribute, then each `source` child, in document order) that the decoders can play.
///
/// A video is heard through its sound: the decoders take the first audio stream of its container.
public struct EmbeddedMediaOpener: Sendable {
    let publication: Publication
    let decoderFactory: any AudioDecoderFactory

    public init(publication: Publication, decoderFactory: any AudioDecoderFactory) {
        self.publication = publication
        self.decoderFactory = decoderFactory
    }

    /// A decoder of the first source of `sources` that opens, and that source. Throws, when none does,
    /// the error of the first source tried, its message saying why each one failed.
    public func open(_ sources: [Link]) throws(AudioDecoderError) -> (decoder: any AudioDecoder, source: Link) {
        var failures: [(href: String, error: any Error)] = []
        for source in sources {
            do {
                // The content extractor typed the link (the element's `type`, else its extension's).
                let resource = try publication.resource(at: source.href)
                return (try decoderFactory.makeDecoder(for: resource, mediaType: source.mediaType), source)
            } catch {
                failures.append((source.href, error))
            }
        }
        let reasons = failures.map { "\($0.href): \(Self.reason(of: $0.error))" }.joined(separator: "; ")
        let first = failures.first
        let code: AudioDecoderError.Code = switch first?.error {
        case let error as AudioDecoderError: error.code
        default: .trackUnreadable
        }
        throw AudioDecoderError(code, subject: first?.href, message: reasons.isEmpty ? "no source" : reasons, cause: first?.error)
    }

    private static func reason(of error: any Error) -> String {
        switch error {
        case let error as AudioDecoderError: error.message
        case let error as ResourceError: error.message
        default: "\(error)"
        }
    }
}
