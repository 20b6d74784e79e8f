// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import LCPTestSupport
import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import ReadiumLCP

/// A `.lcpl` whose publication is on a web server (nginx on 127.0.0.1) streams: the package is read in place with
/// range requests and decrypted by the blocks each read needs; seeking in an encrypted 60-minute MP3 reads no more
/// than three blocks around its target beyond what the clear MP3 needs.
@Suite(.serialized, .enabled(if: Corpus.isAvailable && NginxServer.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
                            "needs the corpus, nginx and ffmpeg"))
struct LCPStreamingTests {
    /// A 60-minute MP3 (a sine, 16 kb/s mono), made once per process by ffmpeg.
    static let longMP3: URL? = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-lcp-60min-\(ProcessInfo.processInfo.processIdentifier).mp3")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3600:sample_rate=16000",
                             "-ac", "1", "-c:a", "libmp3lame", "-b:a", "16k", url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? url : nil
    }()

    static let passphrase = "raudio test passphrase"

    /// The encrypted package of `mp3` and its signed licence whose publication link is `publicationURL`.
    static func package(of mp3: Data, publicationURL: String?) throws -> (package: Data, licence: Data, spec: LCPVectorMaker.License) {
        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "streaming-test"
        let withoutLink = try LCPVectorMaker().license(spec)
        let package = try LCPVectorMaker.audiobookPackage(license: withoutLink, contentKey: spec.contentKey, resources: [.init(href: "audio/long.mp3", type: "audio/mpeg", data: mp3)])
        if let publicationURL {
            spec.links = [LCPVectorMaker.link("publication", publicationURL, type: "application/audiobook+lcp", length: package.count)]
        }
        return (package, try LCPVectorMaker().license(spec), spec)
    }

    static func readFrames(_ decoder: any AudioDecoder, count frames: Int) throws -> [Float] {
        let channels = decoder.format.channelCount
        var result: [Float] = []
        var block = [Float](repeating: 0, count: frames * channels)
        while result.count < frames * channels {
            let wanted = frames - result.count / channels
            let got = try block.withUnsafeMutableBufferPointer { buffer in try decoder.read(into: buffer.baseAddress!, maxFrames: wanted) }
            if got == 0 { break }
            result += block[0..<(got * channels)]
        }
        return result
    }

    @Test func aLicenceWhosePublicationIsOnAServerPlaysAndSeeksWithRangeRequests() throws {
        let mp3URL = try #require(Self.longMP3, "ffmpeg could not make the MP3")
        let mp3 = try Data(contentsOf: mp3URL)
        let server = try NginxServer()
        defer { server.stop() }
        let (package, licence, _) = try Self.package(of: mp3, publicationURL: server.url("book.lcpa"))
        try package.write(to: server.documentRoot.appendingPathComponent("book.lcpa"))
        let folder = try TemporaryDirectory()
        let licenceURL = folder.url.appendingPathComponent("loan.lcpl")
        try licence.write(to: licenceURL)

        var protection = LCPContentProtection(service: LCPService(client: BasicProfileLCPClient()), authentication: LCPFixedPassphrase(Self.passphrase))
        protection.remotePublication = { link, _ throws(OpeningError) in
            do throws(ResourceError) {
                return try ZIPContainer(remote: URL(string: link.href)!, access: RemoteAccess(client: CurlHTTPClient()))
            } catch {
                throw OpeningError(error)
            }
        }
        let publication = try PublicationOpener(checksContentDocuments: false, contentProtections: [protection]).open(url: licenceURL)
        let factory = RAudioDecoderFactory()
        let streamed = try factory.makeDecoder(for: try publication.resource(at: "audio/long.mp3"), mediaType: nil)
        let clear = try factory.makeDecoder(for: FileResource(url: mp3URL), mediaType: nil)
        #expect(try Self.readFrames(streamed, count: 8192) == Self.readFrames(clear, count: 8192))
        for fraction in [0.5, 0.1, 0.93] {
            let frame = Int64(Double(try #require(clear.frameCount)) * fraction)
            try streamed.seek(toFrame: frame)
            try clear.seek(toFrame: frame)
            #expect(try Self.readFrames(streamed, count: 4096) == Self.readFrames(clear, count: 4096), "at \(fraction)")
        }
        let requests = server.accessLog.filter { $0.contains("/book.lcpa") }
        #expect(requests.count > 2, "\(requests)")
        #expect(requests.dropFirst().allSatisfy { $0.contains(" 206 ") }, "every request after the first is a range: \(requests)")
    }

    /// The byte ranges a resource is read by, merged.
    final class RangeRecorder: Resource, @unchecked Sendable {
        let base: any Resource
        private let lock = NSLock()
        private(set) var ranges: [Range<UInt64>] = []
        init(_ base: any Resource) { self.base = base }
        var href: String { base.href }
        var isRandomAccessCheap: Bool { true }
        var isRemote: Bool { false }
        func length() throws(ResourceError) -> UInt64 { try base.length() }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
            let data = try read(range: offset..<offset + UInt64(buffer.count))
            data.copyBytes(to: buffer)
            return data.count
        }
        func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
            let data = try base.read(range: range)
            let start = range?.lowerBound ?? 0
            lock.withLock { ranges.append(start..<start + UInt64(data.count)) }
            return data
        }
        func reset() { lock.withLock { ranges = [] } }
        /// The ranges read since the last reset, merged where they touch.
        var spans: [Range<UInt64>] {
            lock.withLock {
                ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }.reduce(into: []) { spans, range in
                    if let last = spans.last, range.lowerBound <= last.upperBound {
                        spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
                    } else {
                        spans.append(range)
                    }
                }
            }
        }
    }

    /// Bytes read for a seek into an encrypted 60-minute MP3 against the clear one: at most three 16-byte blocks
    /// more for each stretch the clear file reads (the block before as IV, the partial blocks at both ends).
    @Test func seekingInAnEncryptedHourReadsAtMostThreeBlocksBeyondTheClearFile() throws {
        let mp3URL = try #require(Self.longMP3, "ffmpeg could not make the MP3")
        let mp3 = try Data(contentsOf: mp3URL)
        let (package, _, spec) = try Self.package(of: mp3, publicationURL: nil)
        let folder = try TemporaryDirectory()
        let packageURL = folder.url.appendingPathComponent("book.lcpa")
        try package.write(to: packageURL)
        let container = try ZIPContainer(url: packageURL)
        let encrypted = RangeRecorder(try container.resource(at: "audio/long.mp3"))
        let client = BasicProfileLCPClient()
        let context = try client.createContext(jsonLicense: String(decoding: try LCPVectorMaker().license(spec), as: UTF8.self),
                                               hashedPassphrase: BasicProfileLCPClient.hashPassphrase(Self.passphrase), pemCrl: "")
        let decrypted = LCPDecryptor(base: encrypted, encryption: LCPResourceEncryption(), decryptor: LCPContentDecryptor(client: client, context: context))
        let plain = RangeRecorder(FileResource(url: mp3URL))
        let factory = RAudioDecoderFactory()
        let decoders = (try factory.makeDecoder(for: decrypted, mediaType: .mp3), try factory.makeDecoder(for: plain, mediaType: .mp3))
        _ = try Self.readFrames(decoders.0, count: 4096)
        _ = try Self.readFrames(decoders.1, count: 4096)
        var report: [String] = []
        for minute in [30.0, 5.0, 59.0, 45.5] {
            encrypted.reset()
            plain.reset()
            let frame = Int64(minute * 60 * Double(decoders.1.format.sampleRate))
            try decoders.0.seek(toFrame: frame)
            try decoders.1.seek(toFrame: frame)
            #expect(try Self.readFrames(decoders.0, count: 4096) == Self.readFrames(decoders.1, count: 4096), "at minute \(minute)")
            let clearSpans = plain.spans
            let clearBytes = clearSpans.reduce(0) { $0 + $1.count }
            let encryptedBytes = encrypted.spans.reduce(0) { $0 + $1.count }
            report.append("minute \(minute): clear \(clearBytes) B in \(clearSpans.count) stretch(es), encrypted \(encryptedBytes) B")
            #expect(encryptedBytes <= clearBytes + 48 * max(1, clearSpans.count), "\(report.last!)")
            // (mpg123's first far seek reads the frames on its way to build its index, in the clear file as much.)
        }
        print("LCP seek cost: " + report.joined(separator: "; "))
    }
}
