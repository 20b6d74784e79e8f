// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import RAudioPlayer
import ReadiumShared
import Testing

/// A path the kernel refuses as too long (`ENAMETOOLONG`) is reported as too long, with the
/// `name-too-long` code and exit 64, not as a missing file (issue 51): a 100,000-character path, and a
/// path with one name over 255 bytes.
@Suite struct PathTooLongTests {
    static let cases: [(String, String)] = [
        ("/tmp/" + String(repeating: "a/", count: 50_000) + "book.epub", "too long to be a path"),
        (FileManager.default.temporaryDirectory.path + "/" + String(repeating: "é", count: 200) + ".epub", "a name too long"),
    ]

    @Test(arguments: 0..<2)
    func aPathTooLongIsNamedAsSuchNotAsMissing(index: Int) throws {
        let (path, words) = Self.cases[index]
        for command in [["info", path], ["text", path], ["speak", path, "--output", "null", "--json", "--no-state"]] {
            let result = try ProcessRunner.raudio(command, timeout: 60)
            #expect(result.status == 64, "\(command[0]): exit \(result.status): \(result.standardError.prefix(400))")
            #expect(result.standardError.contains(words), "\(command[0]): \(result.standardError.prefix(400))")
            #expect(!result.standardError.contains("does not exist"), "\(command[0]): \(result.standardError.prefix(400))")
            #expect(result.standardError.utf8.count < 2_000, "\(command[0]): the message is \(result.standardError.utf8.count) bytes")
        }
    }

    @Test func theLengthLimitsAreTheKernels() {
        #expect(PathLength.problem("/tmp/book.epub") == nil)
        #expect(PathLength.problem("/" + String(repeating: "x", count: 255)) == nil)
        #expect(PathLength.problem("/" + String(repeating: "x", count: 256)) != nil)
        #expect(PathLength.problem(String(repeating: "/x", count: 2_048)) != nil)
        #expect(ExitStatus(code: .nameTooLong) == .usage)
    }
}
