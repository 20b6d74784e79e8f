// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// `epub-iterate EPUB`: opens the EPUB, iterates its whole content from the start and splits every
/// text element into sentences, as the speech synthesizer will.
///
/// Reports the wall time of the whole (open + iterate + tokenize) and of each part, with the
/// element and utterance counts so that a faster run that skipped work would show.
struct EPUBIterationBenchmark {
    let path: String

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("EPUB")
    }

    func run() throws(BenchmarkError) {
        let clock = ContinuousClock()
        let start = clock.now
        let publication = try EPUBOpening.open(path)
        let opened = clock.now
        let content: any Content
        do {
            content = try publication.content(from: nil)
        } catch {
            throw .failed("\(path): \(error)")
        }
        let tokenizer = ContentTokenizer(
            unit: .sentence, defaultLanguage: publication.metadata.languages.first.map(Language.init(code:))
        )
        let iterator = content.iterator()
        var elementCount = 0
        var textElementCount = 0
        var utteranceCount = 0
        var characterCount = 0
        var iterating = Duration.zero
        var tokenizing = Duration.zero
        while true {
            let before = clock.now
            let next: (any ContentElement)?
            do {
                next = try iterator.next()
            } catch {
                throw .failed("\(path): \(error)")
            }
            let between = clock.now
            iterating += between - before
            guard let element = next else { break }
            elementCount += 1
            guard element is TextContentElement else { continue }
            textElementCount += 1
            for utterance in tokenizer.tokenize(element) {
                utteranceCount += 1
                characterCount += utterance.spokenText?.count ?? 0
            }
            tokenizing += clock.now - between
        }
        let end = clock.now
        BenchmarkRunner.emit([
            "measurement": "epub-iterate",
            "file": .string(path),
            "readingOrder": .integer(Int64(publication.readingOrder.count)),
            "wallMs": .number(of: (end - start).milliseconds),
            "openMs": .number(of: (opened - start).milliseconds),
            "iterateMs": .number(of: iterating.milliseconds),
            "tokenizeMs": .number(of: tokenizing.milliseconds),
            "elements": .integer(Int64(elementCount)),
            "textElements": .integer(Int64(textElementCount)),
            "utterances": .integer(Int64(utteranceCount)),
            "characters": .integer(Int64(characterCount)),
        ])
    }
}
