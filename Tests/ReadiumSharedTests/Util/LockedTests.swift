// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// `Locked` under real contention: threads of our own (not the cooperative pool) hammer one value.
struct LockedTests {
    @Test func incrementsFromFourThreadsAreNeverLost() {
        let counter = Locked(0)
        let perThread = 50_000
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<perThread { counter.withLock { $0 += 1 } }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success, "the threads did not finish: a deadlock")
        #expect(counter.withLock { $0 } == 4 * perThread)
    }

    @Test func theResultAndTheErrorOfTheBodyPassThroughAndTheLockIsReleasedAfterAThrow() throws {
        struct Refused: Error {}
        let names = Locked<[String]>([])
        #expect(throws: Refused.self) { try names.withLock { (_: inout [String]) throws(Refused) in throw Refused() } }
        let count = names.withLock { names -> Int in
            names.append("after the throw")
            return names.count
        }
        #expect(count == 1)
    }
}
