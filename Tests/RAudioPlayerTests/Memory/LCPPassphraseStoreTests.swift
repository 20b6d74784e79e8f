// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing
@testable import RAudioState

/// The store keeps LCP passphrases hashed, looked up as Readium does: licence id, user and provider, all.
@Suite struct LCPPassphraseStoreTests {
    private let hashA = String(repeating: "a", count: 64)
    private let hashB = String(repeating: "b", count: 64)
    private let hashC = String(repeating: "c", count: 64)

    @Test func passphraseHashesAreFoundByLicenceThenUserAndProviderThenAll() throws {
        let folder = try TemporaryDirectory()
        let store = try #require(ListeningStateStore.open(directory: folder.url).store)
        try store.addLCPPassphrase(hash: hashA, licenseID: "licence-1", provider: "https://p", userID: "reader", at: 1)
        try store.addLCPPassphrase(hash: hashB, licenseID: "licence-2", provider: "https://p", userID: "reader", at: 2)
        try store.addLCPPassphrase(hash: hashC, licenseID: "licence-3", provider: "https://q", userID: nil, at: 3)
        #expect(try store.lcpPassphrase(licenseID: "licence-1") == hashA)
        #expect(try store.lcpPassphrase(licenseID: "licence-9") == nil)
        #expect(try store.lcpPassphrases(userID: "reader", provider: "https://p") == [hashB, hashA])
        #expect(try store.lcpPassphrases(userID: "reader", provider: "https://q").isEmpty)
        #expect(try store.allLCPPassphrases() == [hashC, hashB, hashA])
        // A licence opened again with another passphrase keeps only the new hash.
        try store.addLCPPassphrase(hash: hashC, licenseID: "licence-1", provider: "https://p", userID: "reader", at: 4)
        #expect(try store.lcpPassphrase(licenseID: "licence-1") == hashC)
        // It survives reopening the file.
        let reopened = try #require(ListeningStateStore.open(directory: folder.url).store)
        #expect(try reopened.lcpPassphrase(licenseID: "licence-2") == hashB)
    }

    /// Only a SHA-256 in hexadecimal is written: a passphrase passed by mistake never reaches the file.
    @Test func somethingThatIsNotAHashIsNeverWritten() throws {
        let folder = try TemporaryDirectory()
        let store = try #require(ListeningStateStore.open(directory: folder.url).store)
        #expect(throws: (any Error).self) {
            try store.addLCPPassphrase(hash: "White whales are huge!", licenseID: "l", provider: "p", userID: nil)
        }
        #expect(throws: (any Error).self) {
            try store.addLCPPassphrase(hash: String(repeating: "G", count: 64), licenseID: "l", provider: "p", userID: nil)
        }
        try store.checkpoint()
        let bytes = try Data(contentsOf: store.file)
        #expect(bytes.range(of: Data("White whales".utf8)) == nil)
        #expect(try store.allLCPPassphrases().isEmpty)
    }
}
