// SPDX-License-Identifier: GPL-3.0-or-later
/// Where each sample of a track lies and when it plays, from its `stbl`: decoding times (`stts`),
/// samples per chunk (`stsc`), sizes (`stsz`) and chunk offsets (`stco`/`co64`). The two large tables
/// stay in the file (`MP4LazyTable`); a cursor makes sequential reading cost nothing per sample.
final class MP4SampleTable {
    struct TimeRun { let count: Int; let delta: Int64 }
    struct ChunkRun { let firstChunk: Int; let samplesPerChunk: Int }

    let sampleCount: Int
    private let timeRuns: [TimeRun]
    private let chunkRuns: [ChunkRun]
    private let constantSize: UInt32
    private let sizes: MP4LazyTable?
    private let chunkOffsets: MP4LazyTable
    /// The sum of every sample's duration, in the track's timescale.
    let totalDuration: Int64

    /// The next sample a sequential read gives, and where it lies.
    private var cursor = Cursor()
    private struct Cursor {
        var sample = 0
        var chunk = 0
        var chunkRun = 0
        /// The first sample of `chunk`.
        var chunkFirstSample = 0
        var offset: UInt64 = 0
        var isPlaced = false
    }

    init(stbl: MP4Box, files: MP4BoxReader) throws(MP4Unsupported) {
        let boxes = try files.children(of: stbl)
        guard let stts = boxes.first("stts"), let stsc = boxes.first("stsc") else { throw MP4Unsupported("a track has no sample timing") }
        timeRuns = try Self.timeRuns(try files.payload(of: stts))
        chunkRuns = try Self.chunkRuns(try files.payload(of: stsc))
        if let stsz = boxes.first("stsz") {
            var header = MP4Bytes(try files.bytes(at: stsz.payload, count: 12))
            try header.skip(4)
            constantSize = try header.uint32()
            sampleCount = Int(try header.uint32())
            if constantSize == 0 {
                guard UInt64(sampleCount) * 4 <= UInt64(stsz.payloadSize - 12) else { throw MP4Unsupported("the sample size table is cut short") }
                sizes = MP4LazyTable(files: files, base: stsz.payload + 12, count: sampleCount, width: 4)
            } else {
                sizes = nil
            }
        } else {
            throw MP4Unsupported("compact sample sizes (stz2) are left to FFmpeg")
        }
        guard let offsets = boxes.first("stco") ?? boxes.first("co64") else { throw MP4Unsupported("a track has no chunk offsets") }
        var header = MP4Bytes(try files.bytes(at: offsets.payload, count: 8))
        try header.skip(4)
        let chunkCount = Int(try header.uint32())
        let width = offsets.type == "co64" ? 8 : 4
        guard UInt64(chunkCount * width) <= UInt64(offsets.payloadSize - 8) else { throw MP4Unsupported("the chunk offset table is cut short") }
        chunkOffsets = MP4LazyTable(files: files, base: offsets.payload + 8, count: chunkCount, width: width)
        let timed = timeRuns.reduce(0) { $0 + $1.count }
        guard timed == sampleCount, sampleCount > 0, chunkCount > 0, chunkRuns.first?.firstChunk == 1 else {
            throw MP4Unsupported("the sample tables disagree (\(timed) timed, \(sampleCount) sized)")
        }
        totalDuration = timeRuns.reduce(0) { $0 + Int64($1.count) * $1.delta }
    }

    // MARK: - Time

    /// When sample `index` starts and how long it lasts (track timescale; past the last sample, the
    /// total duration and 0); sequential calls are O(1).
    func timing(ofSample index: Int) -> (start: Int64, duration: Int64) {
        if index < timeCursor.firstSample { timeCursor = TimeCursor() }
        while timeCursor.run < timeRuns.count, index >= timeCursor.firstSample + timeRuns[timeCursor.run].count {
            let run = timeRuns[timeCursor.run]
            timeCursor.firstSample += run.count
            timeCursor.startTime += Int64(run.count) * run.delta
            timeCursor.run += 1
        }
        guard timeCursor.run < timeRuns.count else { return (totalDuration, 0) }
        let run = timeRuns[timeCursor.run]
        return (timeCursor.startTime + Int64(index - timeCursor.firstSample) * run.delta, run.delta)
    }

    /// The time run of the last `timing(ofSample:)` call.
    private var timeCursor = TimeCursor()
    private struct TimeCursor {
        var run = 0
        var firstSample = 0
        var startTime: Int64 = 0
    }

    /// The sample playing at `time` (track timescale): the last one starting at or before it.
    func sample(at time: Int64) -> Int {
        var index = 0
        var start: Int64 = 0
        for run in timeRuns {
            let end = start + Int64(run.count) * run.delta
            if time < end {
                guard run.delta > 0 else { return index }
                return index + Int((time - start) / run.delta)
            }
            index += run.count
            start = end
        }
        return sampleCount - 1
    }

    // MARK: - Place in the file

    /// The byte offset and size of sample `index`; sequential calls are O(1).
    func location(ofSample index: Int) throws(MP4Unsupported) -> (offset: UInt64, size: Int) {
        guard index >= 0, index < sampleCount else { throw MP4Unsupported("sample \(index) is out of range") }
        if !cursor.isPlaced || index != cursor.sample { try place(at: index) }
        let size = Int(try size(ofSample: index))
        let location = (cursor.offset, size)
        try advance(past: size)
        return location
    }

    private func size(ofSample index: Int) throws(MP4Unsupported) -> UInt32 {
        guard let sizes else { return constantSize }
        return UInt32(truncatingIfNeeded: try sizes[index])
    }

    /// Samples in a chunk of run `run`.
    private func samplesPerChunk(inRun run: Int) -> Int { chunkRuns[run].samplesPerChunk }

    /// Chunks in run `run` (the last run lasts to the last chunk).
    private func chunks(inRun run: Int) -> Int {
        let next = run + 1 < chunkRuns.count ? chunkRuns[run + 1].firstChunk : chunkOffsets.count + 1
        return max(0, next - chunkRuns[run].firstChunk)
    }

    /// Moves the cursor to sample `index`: its chunk from the runs, then the sizes before it in that chunk.
    private func place(at index: Int) throws(MP4Unsupported) {
        var first = 0
        for run in chunkRuns.indices {
            let perChunk = samplesPerChunk(inRun: run)
            let inRun = chunks(inRun: run) * perChunk
            if index < first + inRun, perChunk > 0 {
                let chunkInRun = (index - first) / perChunk
                cursor.chunk = chunkRuns[run].firstChunk - 1 + chunkInRun
                cursor.chunkRun = run
                cursor.chunkFirstSample = first + chunkInRun * perChunk
                cursor.offset = try chunkOffsets[cursor.chunk]
                if sizes == nil {
                    cursor.offset += UInt64(index - cursor.chunkFirstSample) * UInt64(constantSize)
                } else {
                    for sample in cursor.chunkFirstSample..<index { cursor.offset += UInt64(try size(ofSample: sample)) }
                }
                cursor.sample = index
                cursor.isPlaced = true
                return
            }
            first += inRun
        }
        throw MP4Unsupported("sample \(index) lies in no chunk")
    }

    private func advance(past size: Int) throws(MP4Unsupported) {
        cursor.sample += 1
        cursor.offset += UInt64(size)
        guard cursor.sample - cursor.chunkFirstSample >= samplesPerChunk(inRun: cursor.chunkRun) else { return }
        // The next chunk, perhaps of the next run.
        cursor.chunkFirstSample = cursor.sample
        cursor.chunk += 1
        if cursor.chunkRun + 1 < chunkRuns.count, cursor.chunk + 1 >= chunkRuns[cursor.chunkRun + 1].firstChunk {
            cursor.chunkRun += 1
        }
        if cursor.sample < sampleCount {
            guard cursor.chunk < chunkOffsets.count else { throw MP4Unsupported("sample \(cursor.sample) lies past the last chunk") }
            cursor.offset = try chunkOffsets[cursor.chunk]
        }
    }

    // MARK: - Parsing

    private static func timeRuns(_ payload: [UInt8]) throws(MP4Unsupported) -> [TimeRun] {
        var bytes = MP4Bytes(payload)
        try bytes.skip(4)
        let count = Int(try bytes.uint32())
        guard count <= bytes.remaining / 8 else { throw MP4Unsupported("the stts table is cut short") }
        var runs: [TimeRun] = []
        runs.reserveCapacity(count)
        for _ in 0..<count {
            runs.append(TimeRun(count: Int(try bytes.uint32()), delta: Int64(try bytes.uint32())))
        }
        return runs
    }

    private static func chunkRuns(_ payload: [UInt8]) throws(MP4Unsupported) -> [ChunkRun] {
        var bytes = MP4Bytes(payload)
        try bytes.skip(4)
        let count = Int(try bytes.uint32())
        guard count <= bytes.remaining / 12 else { throw MP4Unsupported("the stsc table is cut short") }
        var runs: [ChunkRun] = []
        runs.reserveCapacity(count)
        for _ in 0..<count {
            let first = Int(try bytes.uint32())
            let perChunk = Int(try bytes.uint32())
            try bytes.skip(4)
            guard first > (runs.last?.firstChunk ?? 0) else { throw MP4Unsupported("the stsc table is out of order") }
            runs.append(ChunkRun(firstChunk: first, samplesPerChunk: perChunk))
        }
        return runs
    }
}
