// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumShared

/// The stages of `BookAligner` on features alone (the reference of the book and of each audio file, both
/// normalized): locating each part of the text, warping it within its span, and placing and scoring sentences.
struct AlignmentCore {
    /// A part of the text located as one: a content document, or consecutive ones, of at least `minimumPartFrames` of reference.
    struct Part {
        var chapters: [Int]
        var frames: Range<Int>
    }

    struct Placement: Equatable {
        var track: Int
        var begin: Double
        var end: Double
    }

    struct AudioRange: Equatable {
        var track: Int
        var begin: Double
        var end: Double
    }

    struct Result {
        /// Per sentence: where it is heard, or nil.
        var placements: [Placement?]
        var confidences: [Double]
        var unmatchedAudio: [AudioRange]
        /// Parts located at a chapter mark of the audio (`hints`) that their narration confirmed.
        var partsAtChapterMarks = 0
    }

    /// A chapter mark of the audio (an M4B's chapters, a manifest's `#t=` links): a track and a frame where some
    /// part's narration may start. Never trusted blindly: a part is located at one only when its first seconds
    /// match there as well as a search of the whole narration would require (`minimumLocateScore`).
    struct Hint: Equatable {
        var track: Int
        var frame: Int
    }

    /// Located parts and those that go with them, warped as one.
    struct Group {
        var location: Location
        var parts: [Int]
        /// Frames of narration before the location searched for the parts put before the located one.
        var lead: Int
    }

    /// Where a part was located: its track, the frame its narration starts at, and how far above chance that is.
    struct Location {
        var part: Int
        var track: Int
        var start: Int
        var score: Float
    }

    static let minimumPartFrames = 2_000
    static let minimumLocateFrames = 200
    /// The first seconds of a part matched against the narration to locate it, in frames; at 1/`locateFactor` the rate.
    static let locateFrames = 2_000
    static let locateFactor = 10
    /// How far (robust standard deviations) below the narration's typical cost a part's best match must be.
    static let minimumLocateScore: Float = 3

    let reference: SpeechFeatures
    let chapters: [BookAligner.ReferenceChapter]
    /// Each sentence's frames in `reference` (empty: nothing spoken).
    let sentences: [Range<Int>]
    let tracks: [SpeechFeatures]
    let options: BookAligner.Options
    /// The audio's chapter marks, if it has any.
    var hints: [Hint] = []
    /// How far before and after a chapter mark a part's start is looked for, in frames (an announcement, a title
    /// read before the text, music: up to a minute).
    static let hintBefore = 1_000, hintAfter = 6_000
    /// How much lower (robust standard deviations) than the best match anywhere a match at a chapter mark may score
    /// and still be taken.
    static let hintMargin: Float = 1

    /// The parts: each content document with something spoken.
    func parts() -> [Part] {
        chapters.enumerated().filter { !$0.element.frames.isEmpty }.map { Part(chapters: [$0.offset], frames: $0.element.frames) }
    }

    /// Stage 1: each part's start, searched in every track at 10 frames a second; where the audio has chapter marks
    /// (`hints`), the part's best match near a mark is taken instead of the best anywhere when it is nearly as good
    /// (`hintMargin`) and clear of chance by `minimumLocateScore - hintMargin`: a mark settles a close call, and a
    /// wrong mark (where the part's narration does not start) is never taken.
    func locate(_ parts: [Part]) -> (locations: [Location], atChapterMarks: Int) {
        let coarseTracks = tracks.map { $0.downsampled(by: Self.locateFactor) }
        let locations = Locked([Location?](repeating: nil, count: parts.count))
        let atMarks = Locked(0)
        DispatchQueue.concurrentPerform(iterations: parts.count) { number in
            let part = parts[number]
            // Under 2 s of reference is too little to be located alone.
            guard part.frames.count >= Self.minimumLocateFrames else { return }
            let head = reference.slice(part.frames.lowerBound..<min(part.frames.upperBound, part.frames.lowerBound + Self.locateFrames))
                .downsampled(by: Self.locateFactor)
            var allCosts: [Float] = []
            var best: (track: Int, match: SubsequenceSearch.Match)?
            for (trackIndex, track) in coarseTracks.enumerated() {
                let (match, costs) = SubsequenceSearch.search(head, in: track)
                allCosts += costs.filter(\.isFinite)
                if let match, best == nil || match.cost < best!.match.cost { best = (trackIndex, match) }
            }
            guard let best, allCosts.count >= 8 else { return }
            let score = Self.robustScore(best.match.cost, among: allCosts)
            if ProcessInfo.processInfo.environment["RAUDIO_ALIGN_DEBUG"] != nil {
                FileHandle.standardError.write(Data("align: part \(number) (\(chapters[part.chapters[0]].href), \(part.frames.count) frames) at track \(best.track) frame \(best.match.start * Self.locateFactor), cost \(best.match.cost), score \(score)\n".utf8))
            }
            var location = Location(part: number, track: best.track, start: best.match.start * Self.locateFactor, score: score)
            if let marked = matchNearHints(head, in: coarseTracks) {
                let markedScore = Self.robustScore(marked.cost, among: allCosts)
                if markedScore >= Self.minimumLocateScore - Self.hintMargin, markedScore >= score - Self.hintMargin {
                    location = Location(part: number, track: marked.track, start: marked.start, score: max(markedScore, Self.minimumLocateScore))
                    atMarks.withLock { $0 += 1 }
                }
            }
            locations.withLock { $0[number] = location }
        }
        return (locations.withLock { $0.compactMap { $0 } }, atMarks.withLock { $0 })
    }

    /// The best match of a part's coarse head near a chapter mark (from `hintBefore` before a mark to `hintAfter`
    /// after it): its track, start frame (full rate) and cost; nil without marks.
    func matchNearHints(_ head: SpeechFeatures, in coarseTracks: [SpeechFeatures]) -> (track: Int, start: Int, cost: Float)? {
        var best: (track: Int, start: Int, cost: Float)?
        for hint in hints where hint.track < coarseTracks.count {
            let track = coarseTracks[hint.track]
            let lower = max(0, (hint.frame - Self.hintBefore) / Self.locateFactor)
            let upper = min(track.count, (hint.frame + Self.hintAfter) / Self.locateFactor + head.count)
            guard upper - lower > head.count else { continue }
            let (match, _) = SubsequenceSearch.search(head, in: track.slice(lower..<upper))
            // A match must start near the mark, not run into the window from beyond it.
            if let match, (lower + match.start) * Self.locateFactor <= hint.frame + Self.hintAfter,
               best == nil || match.cost < best!.cost {
                best = (hint.track, (lower + match.start) * Self.locateFactor, match.cost)
            }
        }
        return best
    }

    /// Frames of narration per frame of reference: the median over parts located one after the other in one track
    /// (from one's start to the next's), else the whole narration over the whole reference.
    static func narrationRate(_ locations: [Location], parts: [Part], audioFrames: Int) -> Double {
        var rates: [Double] = []
        for (first, second) in zip(locations, locations.dropFirst())
        where first.track == second.track && second.part == first.part + 1 && second.start > first.start {
            rates.append(Double(second.start - first.start) / Double(max(1, parts[first.part].frames.count)))
        }
        if !rates.isEmpty { return rates.sorted()[rates.count / 2] }
        let referenceFrames = parts.reduce(0) { $0 + $1.frames.count }
        return referenceFrames == 0 ? 1 : max(0.25, min(4, Double(audioFrames) / Double(referenceFrames)))
    }

    /// How many robust standard deviations `value` is below the median of `values`.
    static func robustScore(_ value: Float, among values: [Float]) -> Float {
        let sorted = values.sorted()
        let median = sorted[sorted.count / 2]
        let deviations = sorted.map { abs($0 - median) }.sorted()
        let mad = max(deviations[deviations.count / 2] * 1.4826, 1e-6)
        return (median - value) / mad
    }

    func run(progress: (Int, Int) -> Void) -> Result {
        var placements = [Placement?](repeating: nil, count: sentences.count)
        var confidences = [Double](repeating: 0, count: sentences.count)
        let parts = parts()
        progress(0, parts.count + 1)
        let (locations, atChapterMarks) = locate(parts)
        var accepted = locations.filter { $0.score >= Self.minimumLocateScore }
        // Two parts located at one place: the better one keeps it.
        accepted.sort { ($0.track, $0.start) < ($1.track, $1.start) }
        var kept: [Location] = []
        for location in accepted {
            if let last = kept.last, last.track == location.track, location.start - last.start < 200 {
                if location.score > last.score { kept[kept.count - 1] = location }
                continue
            }
            kept.append(location)
        }
        // Parts not located: one between two parts that follow each other in one track goes with the one before it;
        // a short one (a heading's page) with the next part when that was located, else with the one before it. Each
        // group's span starts earlier by twice what was put before it.
        var groups: [Group] = kept.map { Group(location: $0, parts: [$0.part], lead: 0) }
        let located = Set(kept.map(\.part))
        var attached: Set<Int> = []
        /// Parts between two located ones that the narration between them has no room for: not narrated.
        var skipped: Set<Int> = []
        let rate = Self.narrationRate(kept, parts: parts, audioFrames: tracks.reduce(0) { $0 + $1.count })
        for number in parts.indices where !located.contains(number) {
            guard let before = groups.firstIndex(where: { $0.parts.last == number - 1 }) else { continue }
            let sandwiched = before + 1 < groups.count && groups[before + 1].location.track == groups[before].location.track
                && groups[before + 1].parts.first == number + 1
            let short = parts[number].frames.count < Self.minimumPartFrames
            if sandwiched, parts[number].frames.count >= Self.minimumLocateFrames {
                // The narration from the part before to the part after holds the part before at the book's pace;
                // with this part too, it would be longer by this part's reference. The nearer length wins (a
                // chapter missing from the audio between two read ones is text with no narration, not squeezed in).
                let previous = groups[before], following = groups[before + 1]
                let heard = Double(following.location.start - previous.location.start)
                let withoutPart = rate * Double(previous.parts.reduce(0) { $0 + parts[$1].frames.count })
                let withPart = withoutPart + rate * Double(parts[number].frames.count)
                if ProcessInfo.processInfo.environment["RAUDIO_ALIGN_DEBUG"] != nil {
                    FileHandle.standardError.write(Data("align: part \(number) not located between two that are: \(Int(heard)) frames of narration, \(Int(withoutPart)) expected without it, \(Int(withPart)) with it (pace \(rate))\n".utf8))
                }
                guard abs(log(max(heard, 1) / withPart)) <= abs(log(max(heard, 1) / max(withoutPart, 1))) else {
                    skipped.insert(number)
                    continue
                }
            }
            if sandwiched || (short && !located.contains(number + 1)) {
                groups[before].parts.append(number)
                attached.insert(number)
            }
        }
        for number in parts.indices.reversed() where !located.contains(number) && !attached.contains(number) && !skipped.contains(number) {
            guard parts[number].frames.count < Self.minimumPartFrames, let after = groups.firstIndex(where: { $0.parts.first == number + 1 }) else { continue }
            groups[after].parts.insert(number, at: 0)
            groups[after].lead += parts[number].frames.count * 2 + 200
        }
        progress(1, parts.count + 1)
        // Stage 2: each group warped within its span, in parallel.
        typealias Outcome = (placements: [(sentence: Int, placement: Placement, confidence: Double)], covered: AudioRange, held: [AudioRange])
        let outcomes = Locked([Outcome?](repeating: nil, count: groups.count))
        let jobs = options.jobs
        let frozenGroups = groups
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, frozenGroups.count))) { worker in
            var number = worker
            while number < frozenGroups.count {
                let group = frozenGroups[number]
                let next = number + 1 < frozenGroups.count ? frozenGroups[number + 1] : nil
                let spanEnd = next.flatMap { $0.location.track == group.location.track ? $0.location.start - $0.lead : nil } ?? tracks[group.location.track].count
                let outcome = warp(group: group.parts.map { parts[$0] }, location: group.location, lead: group.lead, spanEnd: spanEnd)
                outcomes.withLock { $0[number] = outcome }
                number += jobs
            }
        }
        progress(parts.count + 1, parts.count + 1)
        var covered: [AudioRange] = []
        var held: [AudioRange] = []
        for outcome in outcomes.withLock({ $0 }).compactMap({ $0 }) {
            for item in outcome.placements {
                placements[item.sentence] = item.placement
                confidences[item.sentence] = item.confidence
            }
            covered.append(outcome.covered)
            held += outcome.held
        }
        snapToPauses(&placements)
        let heldByNeighbours = Self.heldByNeighbours(placements, confidences: confidences, references: sentences, minimum: options.minimumConfidence)
        for (index, placement) in placements.enumerated() where placement != nil && confidences[index] < options.minimumConfidence && !heldByNeighbours.contains(index) {
            _ = placement
            placements[index] = nil
        }
        closeGaps(&placements)
        return Result(placements: placements, confidences: confidences, unmatchedAudio: unmatched(covered: covered, held: held),
                      partsAtChapterMarks: atChapterMarks)
    }

    /// Sentences under `minimum` but at least half of it whose spoken neighbours in the same track (the one before and
    /// the one after, where there are such) are placed with a confidence of at least `strongConfidence`, and at least
    /// one is, and whose narration is at least half their reference: a short sentence (a heading) between two
    /// well-placed ones is where they leave it, not a guess (one squeezed onto a few frames is not held).
    static let strongConfidence = 0.8
    static func heldByNeighbours(_ placements: [Placement?], confidences: [Double], references: [Range<Int>], minimum: Double) -> Set<Int> {
        var held: Set<Int> = []
        let spoken = references.map { !$0.isEmpty }
        for (index, placement) in placements.enumerated() {
            guard let placement, confidences[index] < minimum, confidences[index] >= minimum / 2,
                  placement.end - placement.begin >= 0.5 * SpeechFeatures.seconds(ofFrame: references[index].count) else { continue }
            let before = placements.indices[..<index].last { spoken[$0] }
            let after = placements.indices[(index + 1)...].first { spoken[$0] }
            var strong = 0, weak = 0
            for neighbour in [before, after].compactMap({ $0 }) {
                guard let other = placements[neighbour] else {
                    weak += 1
                    continue
                }
                guard other.track == placement.track else { continue }
                if confidences[neighbour] >= strongConfidence { strong += 1 } else { weak += 1 }
            }
            if strong > 0, weak == 0 { held.insert(index) }
        }
        return held
    }

    /// Stage 2 for one group: its reference warped onto its span of narration (from a second before its located
    /// start to the next group's start in the same track), ends open.
    func warp(group: [Part], location: Location, lead: Int, spanEnd: Int) -> (placements: [(sentence: Int, placement: Placement, confidence: Double)], covered: AudioRange, held: [AudioRange]) {
        let track = tracks[location.track]
        let spanStart = max(0, location.start - 100 - lead)
        let span = track.slice(spanStart..<max(spanStart + 1, min(track.count, spanEnd + 50)))
        let frames = group.first!.frames.lowerBound..<group.last!.frames.upperBound
        let ref = reference.slice(frames)
        let path = DynamicTimeWarping.align(reference: ref, audio: span, openBegin: true, openEnd: true)
        // Chance: the distance of frames taken at random from both.
        var chance: Float = 0
        var samples = 0
        ref.values.withUnsafeBufferPointer { r in
            span.values.withUnsafeBufferPointer { a in
                var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
                for _ in 0..<4_000 {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    let i = Int((seed >> 33) % UInt64(ref.count))
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    let j = Int((seed >> 33) % UInt64(span.count))
                    chance += DynamicTimeWarping.distance(r.baseAddress! + i * SpeechFeatures.dimensions, a.baseAddress! + j * SpeechFeatures.dimensions)
                    samples += 1
                }
            }
        }
        chance /= Float(max(1, samples))
        let good = path.distance.sorted()[path.distance.count / 2]
        var placements: [(sentence: Int, placement: Placement, confidence: Double)] = []
        for part in group {
            for chapter in part.chapters {
                for sentence in chapters[chapter].sentences where !sentences[sentence].isEmpty {
                    let range = sentences[sentence]
                    let lower = range.lowerBound - frames.lowerBound, upper = range.upperBound - frames.lowerBound
                    guard lower >= 0, upper <= path.first.count, lower < upper else { continue }
                    let begin = Int(path.first[lower]) + spanStart
                    let end = Int(path.last[upper - 1]) + 1 + spanStart
                    var sum: Float = 0
                    for frame in lower..<upper { sum += path.distance[frame] }
                    let mean = sum / Float(upper - lower)
                    var confidence = Double(min(1, max(0, (chance - mean) / max(chance - good, 1e-3))))
                    let ratio = Double(end - begin) / Double(upper - lower)
                    if ratio < 0.4 { confidence *= ratio / 0.4 }
                    if ratio > 4 { confidence *= 4 / ratio }
                    placements.append((sentence, Placement(track: location.track, begin: SpeechFeatures.seconds(ofFrame: begin),
                                                           end: SpeechFeatures.seconds(ofFrame: end)), confidence))
                }
            }
        }
        // A reference frame held over 3 s of narration: narration with no text inside the span (music, an aside).
        var held: [AudioRange] = []
        for index in path.first.indices where path.last[index] - path.first[index] > 300 {
            held.append(AudioRange(track: location.track, begin: SpeechFeatures.seconds(ofFrame: Int(path.first[index]) + spanStart + 20),
                                   end: SpeechFeatures.seconds(ofFrame: Int(path.last[index]) + spanStart - 20)))
        }
        let covered = AudioRange(track: location.track, begin: SpeechFeatures.seconds(ofFrame: path.audioStart + spanStart),
                                 end: SpeechFeatures.seconds(ofFrame: path.audioEnd + spanStart))
        return (placements, covered, held)
    }

    /// Stage 3: each placed sentence starts where speech resumes after the pause nearest to where the warping put it
    /// (from 0.3 s before to 0.1 s after), 50 ms before the first frame of speech; never before the previous sentence's start.
    func snapToPauses(_ placements: inout [Placement?]) {
        let thresholds = tracks.map { DynamicTimeWarping.quietThreshold($0.energy) }
        var previous: Placement?
        for index in placements.indices {
            guard var placement = placements[index] else { continue }
            let energy = tracks[placement.track].energy
            let threshold = thresholds[placement.track]
            let frame = SpeechFeatures.frame(atSeconds: placement.begin)
            var lower = max(0, frame - 30)
            if let previous, previous.track == placement.track { lower = max(lower, SpeechFeatures.frame(atSeconds: previous.begin) + 1) }
            let upper = min(energy.count - 1, frame + 10)
            if lower <= upper {
                // The quiet frame nearest to the warping's start, then the end of its pause.
                var nearest: Int?
                for candidate in lower...upper where energy[candidate] < threshold {
                    if nearest == nil || abs(candidate - frame) < abs(nearest! - frame) { nearest = candidate }
                }
                if let quiet = nearest {
                    var onset = quiet
                    while onset + 1 < energy.count, energy[onset + 1] < threshold, onset + 1 - frame < 50 { onset += 1 }
                    var pauseStart = quiet
                    while pauseStart > lower, energy[pauseStart - 1] < threshold { pauseStart -= 1 }
                    placement.begin = SpeechFeatures.seconds(ofFrame: max(pauseStart, onset + 1 - 5))
                }
            }
            if placement.end <= placement.begin + 0.05 { placement.end = placement.begin + 0.05 }
            placements[index] = placement
            previous = placement
        }
    }

    /// Consecutive placed sentences in one track meet: each ends where the next begins when that is less than
    /// a second after its end (or before it).
    func closeGaps(_ placements: inout [Placement?]) {
        var last: Int?
        for index in placements.indices {
            guard let placement = placements[index] else { continue }
            if let previousIndex = last, var previous = placements[previousIndex], previous.track == placement.track,
               placement.begin > previous.begin, placement.begin - previous.end < 1 {
                previous.end = placement.begin
                placements[previousIndex] = previous
            }
            last = index
        }
    }

    /// The narration no part covers, and what warping held on one frame, per track.
    func unmatched(covered: [AudioRange], held: [AudioRange]) -> [AudioRange] {
        var result: [AudioRange] = []
        for (trackIndex, track) in tracks.enumerated() {
            let ranges = covered.filter { $0.track == trackIndex }.sorted { $0.begin < $1.begin }
            var cursor = 0.0
            for range in ranges {
                if range.begin > cursor { result.append(AudioRange(track: trackIndex, begin: cursor, end: range.begin)) }
                cursor = max(cursor, range.end)
            }
            if track.seconds > cursor { result.append(AudioRange(track: trackIndex, begin: cursor, end: track.seconds)) }
        }
        result += held.filter { $0.end > $0.begin }
        return result.sorted { ($0.track, $0.begin) < ($1.track, $1.begin) }
    }
}
