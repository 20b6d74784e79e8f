// SPDX-License-Identifier: GPL-3.0-or-later
// The ThreadSanitizer build of CI (RAUDIO_PACKAGE_SUBSET=tsan) leaves ReadiumLCP and its crypto out.
#if canImport(ReadiumLCP)
import ArgumentParser
import Foundation
import RAudioPlayer
import RAudioState
import ReadiumLCP
import ReadiumShared

/// How a raudio process opens LCP books: the open basic-profile client, the passphrase from
/// `--passphrase-file`, the store or the terminal, hashed passphrases remembered in the state store.
enum LCPSetup {
    private struct Configuration {
        var passphrase: String?
        var stateDirectory: URL?
    }

    private static let configuration = Locked(Configuration())

    /// Reads the passphrase file now (so that a missing one is a usage error before anything starts).
    static func configure(passphraseFile: String?, stateDirectory: String?) throws(CommandFailure) {
        var passphrase: String?
        if let passphraseFile {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: (passphraseFile as NSString).expandingTildeInPath))
            } catch {
                throw CommandFailure.notFound("\(passphraseFile): the passphrase file cannot be read")
            }
            let text = String(decoding: data, as: UTF8.self)
            passphrase = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first
                .map { String($0) }
            if passphrase?.isEmpty ?? true {
                throw CommandFailure.usage("\(passphraseFile): the passphrase file is empty")
            }
        }
        let directory = StateDirectory.resolve(option: stateDirectory)
        configuration.withLock { $0 = Configuration(passphrase: passphrase, stateDirectory: directory) }
    }

    /// The trust anchors: EDRLab's test roots, plus the PEM file `RAUDIO_LCP_TEST_TRUST_ANCHORS` names (how the tests,
    /// which run the release build in CI, trust the 2015 Moby-Dick vector's self-signed certificate). Only whoever sets
    /// the process's environment can add one: it widens what that user's own raudio accepts, nothing else.
    static var trustAnchors: LCPTrustAnchors {
        if let path = ProcessInfo.processInfo.environment["RAUDIO_LCP_TEST_TRUST_ANCHORS"], !path.isEmpty,
            let pem = try? String(contentsOfFile: path, encoding: .utf8),
            let anchors = try? LCPTrustAnchors.edrlabTest.adding(pem: pem)
        {
            return anchors
        }
        return .edrlabTest
    }

    /// The content protection the opener uses; `opensLocked` for `info`, which shows a book it cannot open.
    static func contentProtection(opensLocked: Bool = false) -> LCPContentProtection {
        let configuration = configuration.withLock { $0 }
        var sources: [any LCPAuthenticating] = []
        if let passphrase = configuration.passphrase { sources.append(LCPFixedPassphrase(passphrase)) }
        sources.append(TerminalPassphrasePrompt())
        let repository: (any LCPPassphraseRepository)?
        if ProcessInfo.processInfo.environment["RAUDIO_NO_STATE"] == "1" {
            repository = nil
        } else {
            repository = StatePassphraseRepository(
                directory: configuration.stateDirectory ?? StateDirectory.resolve(option: nil))
        }
        // The network part (lcp-net): status document, newer licence, registration, CRL, a remote publication.
        var service = LCPService(client: BasicProfileLCPClient(trustAnchors: trustAnchors), passphrases: repository,
                                 statusChecker: LCPNetworkSetup.statusChecker(stateDirectory: configuration.stateDirectory))
        service.crl = { LCPNetworkSetup.currentCRL(stateDirectory: configuration.stateDirectory) }
        var protection = LCPContentProtection(
            service: service, authentication: ChainedAuthentication(sources: sources), opensLockedWithoutPassphrase: opensLocked)
        protection.remotePublication = LCPNetworkSetup.remotePublication
        return protection
    }
}
#endif
