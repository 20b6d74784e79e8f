// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// Rendering across machines: `--shard I/N` synthesizes one share of the book's blocks into the speech cache
/// and a part file; `--merge` puts the parts' utterances back into a cache, checks they cover the whole book,
/// and renders from the cache alone: byte for byte what one render makes, since every block is synthesized
/// the same wherever it is (a fresh eSpeak NG process each) and the outputs are made from the cached audio.
extension BookRenderer {
    /// A share synthesized: its part (to write with `RenderPart.write(from:to:)`), what came from the cache
    /// and what was synthesized, and the seconds of audio it holds.
    public struct RenderedShare: Sendable {
        public var part: RenderPart
        public var counts: RenderCounts
        public var audioSeconds: Double
    }

    /// Synthesizes share `shard` of the book into the cache (blocks already whole there are kept), on a thread
    /// of its own; `progress` is called there after each utterance. Throws `CommandFailure` as `render` does.
    public func renderShare(_ shard: RenderShard,
                            progress: @escaping @Sendable (RenderProgressReport) -> Void = { _ in }) async throws(CommandFailure) -> RenderedShare {
        let result: Result<RenderedShare, CommandFailure> = await BlockingWork.run(named: "raudio.render") { [self] in
            do throws(CommandFailure) {
                return .success(try renderShareBlocking(shard, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The book's blocks as the engine is asked for them, their size, and each block's weight (its text's UTF-8
    /// bytes).
    private func plannedBlocks() throws(CommandFailure)
        -> (utterances: [SpeechUtterance], blocks: [[SynthesisWindow.Item]], blockSize: Int, weights: [Int]) {
        let (utterances, mainLanguage, _) = try plannedUtterances()
        let blockSize = settings.blockSize(forUtterances: utterances.count)
        let blockCount = (utterances.count + blockSize - 1) / blockSize
        let blocks = (0..<blockCount).map { blockItems($0, of: utterances, blockSize: blockSize, mainLanguage: mainLanguage) }
        return (utterances, blocks, blockSize, blocks.map { $0.reduce(0) { $0 + $1.request.text.utf8.count } })
    }

    private func renderShareBlocking(_ shard: RenderShard, progress: (RenderProgressReport) -> Void) throws(CommandFailure) -> RenderedShare {
        guard let cache else {
            throw CommandFailure(.usage, code: "usage", message: "a share is synthesized into a speech cache, and this render has none")
        }
        let (utterances, blocks, blockSize, weights) = try plannedBlocks()
        let share = shard.blocks(weights: weights)
        let window = SynthesisWindow(engine: engine, cache: cache, engineIdentity: settings.engineIdentity)
        let total = blocks[share].reduce(0) { $0 + $1.count }
        var counts = RenderCounts()
        var files: [String] = []
        var seconds = 0.0
        var requested = share.lowerBound
        do throws(CommandFailure) {
            for block in share {
                while requested < share.upperBound, requested <= block + settings.synthesisWindow {
                    window.requestBlock(blocks[requested], number: requested)
                    requested += 1
                }
                let items = blocks[block]
                for (item, key) in zip(items, SynthesisWindow.keys(of: items, engineIdentity: settings.engineIdentity)) {
                    switch window.take(item.index) {
                    case .cached(let cached):
                        counts.cacheHits += 1
                        seconds += cached.duration
                    case .synthesized(let fresh, let key):
                        do { try cache.store(fresh, for: key) } catch { throw CommandFailure(error) }
                        counts.synthesized += 1
                        seconds += fresh.duration
                    case .failed(let error):
                        throw Self.failure(error, utterance: utterances[item.index])
                    }
                    files.append(cache.relativePath(for: key))
                    counts.utterances += 1
                    progress(RenderProgressReport(utterancesDone: counts.utterances, utteranceCount: total, audioSeconds: seconds,
                                                  counts: counts, href: utterances[item.index].locator.href))
                }
            }
        } catch {
            window.cancel()
            throw error
        }
        let part = RenderPart(shard: shard, blocks: share, blockCount: blocks.count, blockSize: blockSize,
                              engineIdentity: settings.engineIdentity, files: files, options: settings.synthesisOptions)
        return RenderedShare(part: part, counts: counts, audioSeconds: seconds)
    }

    /// Checks that `parts` (unpacked into the cache) make the whole book as this renderer reads it: shares of
    /// one cut (the same N, block size and engine), and every block whole in the cache. Throws `CommandFailure`
    /// 65 naming what is missing or does not belong (`part-mismatch`, `part-missing`).
    public func checkMerged(_ parts: [RenderPart]) throws(CommandFailure) {
        guard let cache, let first = parts.first else {
            throw CommandFailure(.usage, code: "usage", message: "--merge takes the part files of raudio render --shard")
        }
        let (_, blocks, blockSize, weights) = try plannedBlocks()
        for part in parts {
            let name = "part \(part.shard)"
            if part.shard.count != first.shard.count {
                throw CommandFailure(.badData, code: "part-mismatch", message: "\(name) is a share of \(part.shard.count), part \(first.shard) of \(first.shard.count): parts of one cut only")
            }
            if part.blockSize != blockSize || part.blockCount != blocks.count {
                throw CommandFailure(.badData, code: "part-mismatch",
                                     message: "\(name) was cut from another reading of the book (\(part.blockCount) blocks of \(part.blockSize); this one has \(blocks.count) of \(blockSize)): the same book, raudio and options as the shards")
            }
            if part.engineIdentity != settings.engineIdentity {
                throw CommandFailure(.badData, code: "part-mismatch",
                                     message: "\(name) was spoken by \(part.engineIdentity), and this raudio speaks with \(settings.engineIdentity): merge where the shards ran, or render again")
            }
            let asked = settings.synthesisOptions
            let differing = part.options.compactMap { option -> String? in
                guard let mine = asked.first(where: { $0.name == option.name }), mine.value != option.value else { return nil }
                return "\(option.name) \(option.value) (this merge: \(option.name) \(mine.value))"
            }
            if !differing.isEmpty {
                throw CommandFailure(.badData, code: "part-mismatch",
                                     message: "\(name) was rendered with \(differing.joined(separator: ", ")): merge with the options the shards were rendered with, or render it again")
            }
            if part.blocks != first.shard.blocksOf(part.shard.number, weights: weights) {
                throw CommandFailure(.badData, code: "part-mismatch", message: "\(name) holds other blocks than share \(part.shard) of this book: render it again")
            }
        }
        var missingShares = Set<Int>()
        for (number, items) in blocks.enumerated() {
            let keys = SynthesisWindow.keys(of: items, engineIdentity: settings.engineIdentity)
            if !keys.allSatisfy(cache.contains) {
                missingShares.insert(RenderShard.share(holding: number, count: first.shard.count, weights: weights))
            }
        }
        if !missingShares.isEmpty {
            let names = missingShares.sorted().map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
            throw CommandFailure(.badData, code: "part-missing", message: "the parts leave out share \(names) of the book: render it with --shard and merge again")
        }
    }
}

extension RenderShard {
    /// The blocks of share `number` of this cut.
    fileprivate func blocksOf(_ number: Int, weights: [Int]) -> Range<Int> {
        (RenderShard(number: number, count: count) ?? self).blocks(weights: weights)
    }
}
