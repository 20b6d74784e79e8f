// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// How `raudio` is linked (Package.swift, issue 13's RSS target): lld with packed relative relocations,
/// no exported symbols, and the functions playback runs laid out first. The relocation and symbol tables
/// are read by the dynamic loader at start (the exports also by every symbol look-up of every library
/// loaded later, FFmpeg's ~100 among them), and their pages stayed resident: 2.4 MB of RELA entries and
/// 2 MB of dynamic symbols with gold's defaults.
@Suite struct BinaryLinkingTests {
    /// `readelf ARGUMENTS raudio`'s output (readelf is binutils', which dpkg-dev brings).
    static func readelf(_ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/readelf"), arguments + [ProcessRunner.raudioExecutable.path])
        #expect(result.status == 0, "readelf \(arguments): \(result.standardError.prefix(300))")
        return result.standardOutput
    }

    @Test func relativeRelocationsArePacked() throws {
        let dynamic = try Self.readelf(["-d", "-W"])
        #expect(dynamic.contains("(RELR)"), "no DT_RELR entry: \(dynamic.prefix(600))")
        // What stays in RELA: the few relocations against symbols (hundreds, not 100,000).
        let line = dynamic.split(separator: "\n").first { $0.contains("(RELASZ)") }
        let bytes = line.flatMap { $0.split(separator: " ").dropLast().last.flatMap { Int($0) } }
        #expect(bytes != nil, "no RELASZ in \(dynamic.prefix(600))")
        if let bytes { #expect(bytes < 256 * 1024, "RELA holds \(bytes) bytes of relocations") }
    }

    @Test func theBinaryExportsNoSymbolTable() throws {
        // `--dyn-syms` lists one line per dynamic symbol (plus a few header lines): the imports from
        // the shared libraries, about 750; with --export-dynamic it was 21,000.
        let symbols = try Self.readelf(["--dyn-syms", "-W"]).split(separator: "\n").count
        #expect(symbols > 10, "readelf listed no dynamic symbols at all")
        #expect(symbols < 3000, "\(symbols) dynamic symbols: the binary exports its own again")
    }

    /// The functions of scripts/raudio-symbol-order.txt follow the file's order in .text (lld's
    /// --symbol-ordering-file): of the first 200 the binary has, most lie each after the one before. Not all:
    /// lld moves whole input sections, and a function sharing its section with others stays with them.
    /// Linked without the option, about half do (as in any random order).
    @Test func playbackFunctionsAreLaidOutInTheOrderFilesOrder() throws {
        let orderFile = Corpus.projectRoot.appendingPathComponent("scripts/raudio-symbol-order.txt")
        let listed = try String(contentsOf: orderFile, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(listed.count > 1000, "\(orderFile.path) lists \(listed.count) functions")
        let nm = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/nm"), ["--defined-only", ProcessRunner.raudioExecutable.path])
        #expect(nm.status == 0)
        var addresses: [String: UInt64] = [:]
        for line in nm.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[1] == "t" || fields[1] == "T", let address = UInt64(fields[0], radix: 16) {
                addresses[String(fields[2])] = address
            }
        }
        let placed = Array(listed.compactMap { addresses[$0] }.prefix(200))
        #expect(placed.count == 200, "only \(placed.count) listed functions are in the binary")
        let following = zip(placed, placed.dropFirst()).filter { $0 <= $1 }.count
        #expect(following * 10 >= (placed.count - 1) * 7, "\(following) of the first \(placed.count) listed functions follow the one before")
    }

    /// The binary linked this way still runs a book through its decoders (the Swift runtime finds its
    /// metadata sections, Foundation its tables): `raudio play` of the sample book to null.
    @Test func theLinkedBinaryPlays() throws {
        let result = try ProcessRunner.raudio(["play", Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook").path,
                                               "--output", "null", "--duration", "0.5"])
        #expect(result.status == 0, "\(result.standardError.prefix(400))")
    }
}
