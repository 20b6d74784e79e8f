// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumShared

/// Stage 4 where an acoustic model exists for the book's language (English, French): the warping's sentence
/// starts refined by forced alignment of the known text (`ForcedAligner`, an HMM aligner; never a recognizer).
///
/// Consecutive placed sentences of one track, up to `chunkSeconds` of narration, are aligned as one stretch of audio
/// (from `leadSeconds` before the first's start to `tailSeconds` after the last's end, the sentences around them
/// optional at its ends). A sentence's new start is the end of the pause before its first word (50 ms before speech
/// resumes), kept only when (1) it is within `windowSeconds` of the warping's start and (2) there is a pause before
/// that word: at least `minimumPauseSeconds` between the word before it and it, or as many quiet frames just before
/// it. Everywhere else the warping's start stays.
struct ModelRefinement {
    static let leadSeconds = 0.8
    static let tailSeconds = 0.5
    static let chunkSeconds = 40.0
    static let windowSeconds = 1.5
    static let minimumPauseSeconds = 0.1

    let aligner: ForcedAligner
    /// Each sentence's text (empty: nothing spoken) and whether it is in the model's language.
    let texts: [String]
    let inLanguage: [Bool]
    /// Each track's frame energies (`SpeechFeatures.energy`) and the track to decode again.
    let energies: [[Float]]
    let tracks: [AlignmentAudio.Track]

    /// Refines `placements` in place; returns how many starts moved to the model's.
    func refine(_ placements: inout [AlignmentCore.Placement?]) -> Int {
        var refined = 0
        for trackIndex in tracks.indices {
            let placed = placements.indices.filter { placements[$0]?.track == trackIndex && inLanguage[$0] && !texts[$0].isEmpty }
            guard !placed.isEmpty else { continue }
            let reader: SequentialSamples
            do {
                reader = try SequentialSamples(decoder: tracks[trackIndex].open())
            } catch {
                continue
            }
            let energy = energies[trackIndex]
            let threshold = DynamicTimeWarping.quietThreshold(energy)
            var position = 0
            while position < placed.count {
                // A chunk: consecutive sentences in time order, up to chunkSeconds.
                var last = position
                while last + 1 < placed.count, placed[last + 1] == placed[last] + 1,
                      let first = placements[placed[position]], let next = placements[placed[last + 1]],
                      next.begin >= first.begin, next.end - first.begin < Self.chunkSeconds {
                    last += 1
                }
                defer { position = last + 1 }
                guard let first = placements[placed[position]], let lastPlacement = placements[placed[last]] else { continue }
                let chunkStart = max(0, first.begin - Self.leadSeconds)
                let chunkEnd = max(chunkStart + 1, lastPlacement.end + Self.tailSeconds)
                let samples = reader.samples(Int(chunkStart * Double(SpeechFeatures.sampleRate))..<Int(chunkEnd * Double(SpeechFeatures.sampleRate)))
                guard samples.count >= SpeechFeatures.sampleRate / 2 else { continue }
                let members = Array(placed[position...last])
                let before = members[0] > 0 ? texts[members[0] - 1] : ""
                let after = members.last! + 1 < texts.count ? texts[members.last! + 1] : ""
                let starts: [ForcedAligner.Start?]
                do {
                    starts = try aligner.starts(of: members.map { texts[$0] }, before: before.isEmpty ? nil : before,
                                                after: after.isEmpty ? nil : after, samples: samples)
                } catch {
                    if ProcessInfo.processInfo.environment["RAUDIO_ALIGN_DEBUG"] != nil {
                        FileHandle.standardError.write(Data("align: model refinement stopped: \(error)\n".utf8))
                    }
                    return refined
                }
                for (number, (member, start)) in zip(members, starts).enumerated() {
                    guard let start, var placement = placements[member] else { continue }
                    let onset = chunkStart + start.start
                    let previousEnd = start.previousEnd.map { chunkStart + $0 }
                    let onsetFrame = SpeechFeatures.frame(atSeconds: onset)
                    // The quiet frames just before the word.
                    var quiet = onsetFrame - 1
                    while quiet >= 0, quiet > onsetFrame - 60, quiet < energy.count, energy[quiet] >= threshold { quiet -= 1 }
                    var quietRun = 0
                    var frame = quiet
                    while frame >= 0, frame < energy.count, energy[frame] < threshold, quietRun < 100 {
                        quietRun += 1
                        frame -= 1
                    }
                    let pause = max(previousEnd.map { onset - $0 } ?? 0, Double(quietRun) / SpeechFeatures.framesPerSecond)
                    guard pause >= Self.minimumPauseSeconds else { continue }
                    var begin = quiet >= 0 && quietRun > 0 ? SpeechFeatures.seconds(ofFrame: quiet + 1) - 0.05 : onset - 0.05
                    if let previousEnd { begin = max(begin, previousEnd) }
                    begin = max(0, min(begin, onset))
                    guard abs(begin - placement.begin) <= Self.windowSeconds else { continue }
                    // Still after the sentence before it and before the one after it.
                    if number > 0, let previous = placements[members[number - 1]], begin <= previous.begin { continue }
                    if number + 1 < members.count, let next = placements[members[number + 1]], begin >= next.begin { continue }
                    placement.begin = begin
                    placements[member] = placement
                    refined += 1
                }
            }
        }
        // Consecutive sentences of one track meet again: each ends where the next begins when that is less than a
        // second after its end, or before it (as `AlignmentCore.closeGaps`; sentences heard in another order than the
        // book's are left as they are).
        var previousIndex: Int?
        for index in placements.indices {
            guard var placement = placements[index] else { continue }
            if placement.end < placement.begin + 0.05 {
                placement.end = placement.begin + 0.05
                placements[index] = placement
            }
            if let earlier = previousIndex, var previous = placements[earlier], previous.track == placement.track,
               placement.begin > previous.begin, placement.begin - previous.end < 1 {
                previous.end = placement.begin
                placements[earlier] = previous
            }
            previousIndex = index
        }
        return refined
    }
}
