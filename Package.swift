// swift-tools-version: 6.0
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

/// raudio: a headless audiobook and text-to-speech playback engine for Linux.
///
/// The arrows point one way: raudio -> RAudioCLI -> RAudioPlayer -> {RAudioEngine, RAudioState} -> {ReadiumNavigator,
/// ReadiumStreamer} -> ReadiumShared, with ReadiumLCP and ReadiumOPDS on ReadiumStreamer, used by RAudioCLI. The `C*`
/// modules are declared by RAudioEngine alone (and CSQLite by RAudioState); docs/ARCHITECTURE.md says where C is
/// reached otherwise today (libxml2's HTML parser looked up by ReadiumStreamer, ZIPFoundation's CZlib imported by
/// ReadiumShared and ReadiumLCP) and draws these arrows (scripts/architecture-graph.py: run it after changing this
/// file).
let package = Package(
    name: "raudio",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ReadiumShared", targets: ["ReadiumShared"]),
        .library(name: "ReadiumStreamer", targets: ["ReadiumStreamer"]),
        .library(name: "ReadiumNavigator", targets: ["ReadiumNavigator"]),
        .library(name: "RAudioEngine", targets: ["RAudioEngine"]),
        .library(name: "RAudioState", targets: ["RAudioState"]),
        .library(name: "ReadiumLCP", targets: ["ReadiumLCP"]),
        .library(name: "ReadiumOPDS", targets: ["ReadiumOPDS"]),
        .library(name: "RAudioPlayer", targets: ["RAudioPlayer"]),
        .executable(name: "raudio", targets: ["raudio"]),
    ],
    // Every dependency pinned exactly (Package.resolved is not committed: these machines' package copies have commit
    // ids of their own), so one commit builds one set of versions. The packages these pull in (swift-atomics 1.3.0,
    // swift-collections 1.6.0, swift-system 1.8.1, swift-docc-symbolkit 1.0.0) exist in one version on the machines
    // raudio builds on; `swift package show-dependencies` prints the graph.
    dependencies: [
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // ReadiumLCP only: AES-256-CBC, SHA-256, RSA PKCS#1 v1.5 (_CryptoExtras) and the X.509 chain of a licence's
        // certificate; pinned exactly, no hand-written crypto. swift-crypto 4.5 decrypts AES-CBC with BoringSSL's
        // AES_cbc_encrypt (3.x went block by block in Swift, which made decryption cost as much as decoding).
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
        // `make docs` only: the DocC catalogues of the four libraries as static HTML (not linked into anything).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian, each behind a thin system-library module.
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CSonic", providers: [.apt(["libsonic-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CExtTextCat", pkgConfig: "libexttextcat", providers: [.apt(["libexttextcat-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // FFTW, single precision: the spectra of `raudio align`'s speech features (RAudioEngine SpeechFeatureExtractor).
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        // Loaded with dlopen on first use, not linked (CLazyLibrary): each target defines the functions raudio
        // calls, with the library's names, and forwards them. eSpeak NG (apt libespeak-ng-dev) for speech,
        // libpulse (libpulse-dev) for --output pulse, sd-bus (libsystemd-dev) for the desktop's media
        // controls (MPRIS on the D-Bus session bus): a process that plays a book to a file maps none of them.
        .target(name: "CLazyLibrary"),
        .target(name: "CESpeakNG", dependencies: ["CLazyLibrary"]),
        .target(name: "CPulseAudio", dependencies: ["CLazyLibrary"]),
        .target(name: "CSystemdBus", dependencies: ["CLazyLibrary"]),
        // Headers only: the libraries are loaded with dlopen on first use (RAudioEngine FFmpegLibrary).
        .systemLibrary(name: "CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        // libcurl for remote publications (RAudioEngine CurlHTTPClient): ranges, keep-alive, TLS, proxies.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // glibc's <malloc.h> (mallopt, mallinfo2): part of libc, nothing to link.
        .systemLibrary(name: "CGlibcMalloc"),
        // libFuzzer's driver entry point (header only; the runtime comes with -sanitize=fuzzer).
        .systemLibrary(name: "CFuzzerSupport"),

        .target(
            name: "ReadiumShared",
            dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .target(name: "ReadiumStreamer", dependencies: ["ReadiumShared", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(name: "ReadiumNavigator", dependencies: ["ReadiumShared"]),
        .target(
            name: "RAudioEngine",
            dependencies: [
                "ReadiumShared", "ReadiumStreamer", "ReadiumNavigator",
                "CMPG123", "CVorbisFile", "CESpeakNG", "CPulseAudio", "CSonic", "CSoxr", "CGlibcMalloc", "CFFmpeg", "CFLAC", "CEBUR128",
                "CSystemdBus", "CCurl", "CExtTextCat", "CFFTW",
            ]
        ),
        // Readium LCP (licences, the basic profile's decryption, the content protection the opener uses), shaped
        // as readium/swift-toolkit's ReadiumLCP; production profiles come from an app's own LCPClient.
        .target(
            name: "ReadiumLCP",
            dependencies: [
                "ReadiumShared", "ReadiumStreamer",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // OPDS catalogs (OPDS 1.x Atom, OPDS 2.0 JSON, OpenSearch, OPDS Authentication 1.0) into typed models on
        // ReadiumShared's, shaped as readium/swift-toolkit's ReadiumOPDS; Atom is read with the streamer's XML reader.
        .target(name: "ReadiumOPDS", dependencies: ["ReadiumShared", "ReadiumStreamer"]),
        // The listening state (positions, bookmarks, settings) in a SQLite file.
        .target(name: "RAudioState", dependencies: ["ReadiumShared", "CSQLite"]),
        // A listening session as a library: typed events and commands, chapters, the sleep timer, the listening
        // memory (resume, bookmarks), the player's status, exit statuses. What an app embeds; the CLI's front ends use it.
        .target(name: "RAudioPlayer", dependencies: ["ReadiumShared", "ReadiumStreamer", "ReadiumNavigator", "RAudioEngine", "RAudioState", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(
            name: "RAudioCLI",
            dependencies: [
                "ReadiumShared", "ReadiumStreamer", "ReadiumNavigator", "RAudioEngine", "RAudioState", "RAudioPlayer", "ReadiumLCP", "ReadiumOPDS",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // IPCFuzzHarness only (debug and fuzz builds): the handlers on an EmbeddedChannel.
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // Linked by lld for a small resident floor (issue 13; README "Linking"): packed relative
        // relocations (DT_RELR, glibc 2.36+; the static Swift runtime and Foundation carry ~100,000 relative
        // relocations, 2.4 MB as RELA entries, read at every start and left resident), no exported symbol
        // table (SwiftPM's --export-dynamic exported 21,000 symbols, searched by every library loaded later),
        // and the functions playback runs laid out together first (scripts/make-symbol-order.sh).
        .executableTarget(
            name: "raudio",
            dependencies: ["RAudioCLI", "RAudioEngine"],
            linkerSettings: [.unsafeFlags([
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/raudio-symbol-order.txt",
                "-Xlinker", "--no-warn-symbol-ordering",
            ])]
        ),
        // `make bench` only: in-process timings (EPUB iteration, seek latency...) as JSON lines.
        .executableTarget(
            name: "raudio-bench",
            dependencies: ["ReadiumShared", "ReadiumStreamer", "ReadiumNavigator", "RAudioEngine", "RAudioState"]
        ),
        // `make fuzz` only: libFuzzer drivers for the parsers, built with -sanitize=fuzzer -DFUZZING.
        .executableTarget(
            name: "raudio-fuzz",
            dependencies: ["CFuzzerSupport", "ReadiumShared", "ReadiumStreamer", "RAudioPlayer", "RAudioCLI"]
        ),

        // Helpers for tests only: the corpus, a private PulseAudio daemon, the Readium validator.
        .target(name: "RAudioTestSupport", dependencies: ["ReadiumShared", "ReadiumStreamer"], path: "Tests/RAudioTestSupport"),
        // LCP test vectors made at test time (LCPVectorMaker: licences signed with the published test provider keys,
        // resources encrypted) for ReadiumLCPTests and RAudioCLITests; apart, so that the tsan build compiles no crypto.
        .target(
            name: "LCPTestSupport",
            dependencies: [
                "RAudioTestSupport", "ReadiumShared", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/LCPTestSupport"
        ),

        .testTarget(name: "ReadiumSharedTests", dependencies: ["RAudioTestSupport", "ReadiumShared"]),
        .testTarget(name: "ReadiumStreamerTests", dependencies: ["RAudioTestSupport", "ReadiumStreamer", "ReadiumShared"]),
        .testTarget(
            name: "ReadiumLCPTests",
            dependencies: [
                "RAudioTestSupport", "LCPTestSupport", "ReadiumLCP", "ReadiumShared", "ReadiumStreamer",
                // The status tests fetch through raudio's own HTTP client.
                "RAudioEngine",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // The CRL test makes a CA, a provider certificate and a CRL of its own.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The fetching tests go through raudio's own HTTP client (RAudioEngine's libcurl).
        .testTarget(name: "ReadiumOPDSTests", dependencies: ["RAudioTestSupport", "ReadiumOPDS", "ReadiumShared", "ReadiumStreamer", "RAudioEngine"]),
        .testTarget(name: "ReadiumNavigatorTests", dependencies: ["RAudioTestSupport", "ReadiumNavigator", "ReadiumShared"]),
        .testTarget(name: "RAudioEngineTests", dependencies: ["RAudioTestSupport", "RAudioEngine", "ReadiumShared", "ReadiumStreamer", "ReadiumNavigator"]),
        .testTarget(
            name: "RAudioCLITests",
            dependencies: [
                "RAudioTestSupport", "RAudioCLI", "RAudioPlayer", "RAudioState", "ReadiumShared", "ReadiumNavigator", "ReadiumStreamer",
                // The catalog tests: feeds checked against the library's own reading of them.
                "ReadiumOPDS",
                // LCP tests: the clear track decrypted in the test, licences re-signed with the published test key.
                "ReadiumLCP", "LCPTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "_CryptoExtras", package: "swift-crypto"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "RAudioPlayerTests", dependencies: ["RAudioTestSupport", "RAudioPlayer", "RAudioState", "ReadiumShared", "ReadiumNavigator", "ReadiumStreamer"]),
        // The measuring parts of raudio-bench (what speak-gaps compares).
        .testTarget(name: "RAudioBenchTests", dependencies: ["raudio-bench", "RAudioTestSupport", "RAudioEngine", "ReadiumShared", "ReadiumStreamer", "ReadiumNavigator"]),
    ],
    swiftLanguageModes: [.v6]
)

/// CI's ThreadSanitizer build (`RAUDIO_PACKAGE_SUBSET=tsan`, set by .ci/run for it alone) builds what its suites
/// run: the test targets of the engine's threads and the `raudio` binary (SpeakCommandTests, run from the debug
/// build's tests, start it). The other test targets, the benchmark and the fuzzing drivers would be compiled with
/// ThreadSanitizer for nothing. `make sanitize` builds everything.
if Context.environment["RAUDIO_PACKAGE_SUBSET"] == "tsan" {
    // ReadiumLCP too (and with it swift-crypto's BoringSSL): none of these suites needs it; the CLI is built
    // without `raudio lcp` and LCP books (`#if canImport(ReadiumLCP)`).
    // ReadiumOPDS too: `raudio catalog` and catalog entries are left out of it (`#if canImport(ReadiumOPDS)`).
    let notRun: Set = ["ReadiumLCP", "ReadiumOPDS", "ReadiumOPDSTests", "ReadiumStreamerTests", "ReadiumLCPTests", "LCPTestSupport", "RAudioCLITests", "RAudioPlayerTests", "RAudioBenchTests", "raudio-bench", "raudio-fuzz"]
    package.targets.removeAll { notRun.contains($0.name) }
    package.products.removeAll { $0.name == "ReadiumLCP" || $0.name == "ReadiumOPDS" }
    for target in package.targets where target.name == "RAudioCLI" {
        target.dependencies.removeAll { dependency in
            if case .byNameItem(name: "ReadiumLCP", _) = dependency { return true }
            if case .byNameItem(name: "ReadiumOPDS", _) = dependency { return true }
            return false
        }
    }
}
