// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumNavigator

/// A sink that takes `secondsPerFrame` of wall time per frame written (a tenth of real time at
/// `TestBooks.format`), so that a test can pause, move and observe while the navigator plays.
final class PacedSink: AudioSink, Sendable {
    let secondsPerFrame: Double
    let written = Locked(0)

    init(secondsPerFrame: Double = 0.0001) { self.secondsPerFrame = secondsPerFrame }

    func open(format: PCMFormat) throws(AudioSinkError) {}
    func write(_ input: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        written.withLock { $0 += input.count }
        Thread.sleep(forTimeInterval: Double(input.count) * secondsPerFrame)
    }
    var pendingFrames: Int { 0 }
    func pause() {}
    func resume() {}
    func flush() {}
    func drain() throws(AudioSinkError) {}
    func close() throws(AudioSinkError) {}
}

extension TestBooks {
    /// `components(sink:)` with a `PacedSink`.
    static func pacedComponents() -> AudioComponents {
        AudioComponents(
            decoderFactory: CountingDecoderFactory(format: format),
            makeSink: { () throws(AudioSinkError) -> any AudioSink in PacedSink() },
            makeSpeedProcessor: { (format: PCMFormat) -> any SpeedProcessor in PassthroughSpeed(format: format) },
            makeResampler: { (_: PCMFormat, _: PCMFormat) -> any Resampler in fatalError("no resampling in these tests") },
            probeDuration: { (_: any Resource) -> Double? in nil })
    }

    /// A text publication of `documents` (href, paragraphs), read by `ParagraphContentService`.
    static func textPublication(_ documents: [(href: String, paragraphs: [String])]) -> Publication {
        let links = documents.map { Link(href: $0.href, type: "application/xhtml+xml") }
        let manifest = Manifest(metadata: Metadata(title: .plain("Text"), languages: ["en"]), readingOrder: links)
        return Publication(manifest: manifest, container: NamesContainer(names: links.map(\.href)), mediaType: .epub)
            .adding(extension: ParagraphContentService(documents: documents), forKey: ContentServiceKey.key)
    }

    /// A narrated publication: each document's paragraphs are `par`s (`#p1`, `#p2`...) whose clips are
    /// consecutive `clipSeconds` of the track `audio` (a `CountingDecoder` name such as `"4000.mp3"`).
    static func narratedPublication(_ documents: [(href: String, paragraphs: [String])], audio: String, clipSeconds: Double) -> Publication {
        let links = documents.map { Link(href: $0.href, type: "application/xhtml+xml") }
        let manifest = Manifest(metadata: Metadata(title: .plain("Narrated"), languages: ["en"]), readingOrder: links)
        var begin = 0.0
        var overlays: [MediaOverlay] = []
        for document in documents {
            let pars = document.paragraphs.indices.map { index in
                defer { begin += clipSeconds }
                var par = MediaOverlayPar(id: nil, textHref: "\(document.href)#p\(index + 1)",
                                          audio: MediaOverlayClip(href: audio, begin: begin, end: begin + clipSeconds))
                par.text = Locator.Text(highlight: document.paragraphs[index])
                return par
            }
            overlays.append(MediaOverlay(smilHref: document.href + ".smil", documentHref: document.href, pars: pars))
        }
        return Publication(manifest: manifest, container: NamesContainer(names: links.map(\.href) + [audio]), mediaType: .epub)
            .adding(extension: ListedOverlays(overlays: overlays), forKey: MediaOverlayServiceKey.key)
    }
}

/// Media overlays given as values, one per reading-order item.
struct ListedOverlays: MediaOverlayService {
    let overlays: [MediaOverlay]
    func hasMediaOverlay(at index: Int) -> Bool { overlays.indices.contains(index) }
    func mediaOverlay(at index: Int) throws(MediaOverlayError) -> MediaOverlay? { overlays.indices.contains(index) ? overlays[index] : nil }
    var warnings: [ParsingWarning] { [] }
}

/// Content made of one body paragraph per string, in English, starting at the first paragraph of the
/// locator's document (its progression picks a later one).
struct ParagraphContentService: ContentService {
    let elements: [TextContentElement]

    init(documents: [(href: String, paragraphs: [String])]) {
        elements = documents.flatMap { document in
            document.paragraphs.enumerated().map { index, text in
                let locator = Locator(href: document.href, type: "application/xhtml+xml",
                                      locations: .init(progression: Double(index) / Double(document.paragraphs.count)),
                                      text: .init(highlight: text))
                return TextContentElement(locator: locator, role: .body,
                                          segments: [.init(locator: locator, text: text, language: Language(code: "en"))])
            }
        }
    }

    func content(from start: Locator?) throws(ContentError) -> any Content {
        guard let start else { return Paragraphs(elements: elements) }
        let progression = start.locations.progression ?? 0
        guard let first = elements.firstIndex(where: { $0.locator.href == start.href && ($0.locator.locations.progression ?? 0) >= progression })
                ?? elements.lastIndex(where: { $0.locator.href == start.href }) else {
            throw ContentError(.contentUnknownHref, href: start.href, message: "\(start.href) is not in the reading order")
        }
        return Paragraphs(elements: Array(elements[first...]))
    }

    struct Paragraphs: Content {
        let elements: [TextContentElement]
        func iterator() -> any ContentIterator { Iterator(elements: elements) }
    }

    final class Iterator: ContentIterator {
        let elements: [TextContentElement]
        var index = -1
        init(elements: [TextContentElement]) { self.elements = elements }
        func next() throws(ContentError) -> (any ContentElement)? {
            guard index + 1 < elements.count else { return nil }
            index += 1
            return elements[index]
        }
        func previous() throws(ContentError) -> (any ContentElement)? {
            guard index > 0 else { return nil }
            index -= 1
            return elements[index]
        }
    }
}

/// A speech engine of one English voice that "speaks" 2000 frames of `TestBooks.format` per word, each
/// word's boundary at its first frame; synthesis completes on a queue of its own.
final class WordToneEngine: TTSEngine {
    static let framesPerWord = 2000
    let voice = TTSVoice(identifier: "test-en", name: "Test", language: Language(code: "en"))
    private let queue = DispatchQueue(label: "raudio.test.word-tone-engine")

    var availableVoices: [TTSVoice] { [voice] }
    func voice(withIdentifier identifier: String) -> TTSVoice? { identifier == voice.identifier ? voice : nil }
    func voice(forLanguage language: Language) -> TTSVoiceChoice { TTSVoiceChoice(voice: voice, requestedLanguage: language, match: .exact) }

    func synthesize(
        _ utterance: TTSUtterance, cancellation: TTSCancellation, onChunk: (@Sendable (TTSAudioChunk) -> Void)?,
        completion: @escaping @Sendable (Result<SynthesizedUtterance, TTSError>) -> Void
    ) {
        let voice = self.voice
        queue.async {
            let text = utterance.text
            var boundaries: [TTSWordBoundary] = []
            var index = text.startIndex
            while let start = text[index...].firstIndex(where: { !$0.isWhitespace }) {
                let end = text[start...].firstIndex(where: \.isWhitespace) ?? text.endIndex
                boundaries.append(TTSWordBoundary(range: start..<end, startFrame: Int64(boundaries.count * Self.framesPerWord)))
                index = end
            }
            let samples = [Float](repeating: 0.1, count: max(boundaries.count, 1) * Self.framesPerWord)
            completion(.success(SynthesizedUtterance(text: text, voice: voice, format: TestBooks.format, samples: samples,
                                                     wordBoundaries: boundaries)))
        }
    }
}
