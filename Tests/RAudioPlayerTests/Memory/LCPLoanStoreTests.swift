// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioState

/// What LCP's network part keeps in the listening state: one device id, registrations once per licence, and the
/// characters of a `copy` right counted down across processes, never past the limit.
@Suite struct LCPLoanStoreTests {
    @Test func theDeviceIdIsMadeOnceAndRegistrationsAreRemembered() throws {
        let folder = try TemporaryDirectory()
        let first = try #require(ListeningStateStore.open(directory: folder.url).store)
        let id = try first.lcpDeviceID()
        #expect(UUID(uuidString: id) != nil)
        #expect(try !first.isLCPDeviceRegistered(licenseID: "l1"))
        try first.markLCPDeviceRegistered(licenseID: "l1")
        let second = try #require(ListeningStateStore.open(directory: folder.url).store)
        #expect(try second.lcpDeviceID() == id)
        #expect(try second.isLCPDeviceRegistered(licenseID: "l1") && !second.isLCPDeviceRegistered(licenseID: "l2"))
    }

    @Test func theCopyRightIsSpentUpToItsLimitAndNoFurther() throws {
        let folder = try TemporaryDirectory()
        let store = try #require(ListeningStateStore.open(directory: folder.url).store)
        #expect(try store.spendLCPCopy(licenseID: "l1", count: 600, limit: 1000))
        #expect(try store.spendLCPCopy(licenseID: "l1", count: 400, limit: 1000))
        #expect(try !store.spendLCPCopy(licenseID: "l1", count: 1, limit: 1000))
        #expect(try store.lcpCopiedCharacters(licenseID: "l1") == 1000)
        #expect(try store.lcpCopiedCharacters(licenseID: "l2") == 0)
        // Two processes spending at once never pass the limit together.
        let other = try #require(ListeningStateStore.open(directory: folder.url).store)
        let spent = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let store = index % 2 == 0 ? store : other
            if (try? store.spendLCPCopy(licenseID: "l3", count: 30, limit: 500)) == true { spent.withLock { $0 += 30 } }
        }
        let counted = try store.lcpCopiedCharacters(licenseID: "l3")
        #expect(spent.withLock { $0 } == 480 && counted == 480)
    }
}
