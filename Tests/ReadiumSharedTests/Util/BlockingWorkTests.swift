// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import ReadiumShared
import Testing

/// The threads raudio owns carry their names to the system, where `top -H` and `/proc` show them.
struct BlockingWorkTests {
    /// The calling thread's name as the kernel knows it.
    private static func systemThreadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func runReturnsTheBodysResultFromAThreadWithTheGivenName() async {
        let seen = await BlockingWork.run(named: "raudio.test") { (Self.systemThreadName(), Thread.isMainThread) }
        #expect(seen.0 == "raudio.test")
        #expect(!seen.1)
    }

    @Test func startedThreadIsNamedForTheSystemFromItsFirstInstruction() {
        let name = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        BlockingWork.startThread(named: "raudio.keys") {
            name.withLock { $0 = Self.systemThreadName() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(name.withLock { $0 } == "raudio.keys")
    }

    @Test func nameLongerThanTheSystemKeepsIsCutInsteadOfLost() {
        let name = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        BlockingWork.startThread(named: "raudio-narration-plan") {
            name.withLock { $0 = Self.systemThreadName() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(name.withLock { $0 } == "raudio-narratio")
    }

    @Test func systemNameIsCutAtACharactersBoundary() {
        #expect(BlockingWork.systemName("raudio.mpris") == "raudio.mpris")
        #expect(BlockingWork.systemName("raudio.espeak-worker") == "raudio.espeak-w")
        // "é" is two bytes, the 15th and 16th: it is left out whole, not cut in half.
        #expect(BlockingWork.systemName("raudio.lectureé") == "raudio.lecture")
    }
}
