// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import Testing

/// FFmpeg's functions are all looked up when its libraries load: one that a library lacks is a
/// `LoadFailure` naming it and the Debian package, as a missing library is, never a crash later.
struct FFmpegLibraryTests {
    static let libavutil = FFmpegLibrary.libraries.first { $0.name == "libavutil" }!

    @Test func everyFunctionRaudioCallsIsFoundInTheInstalledFFmpeg() throws {
        let decoding = try FFmpegLibrary.shared.get()
        _ = try FFmpegLibrary.withDemuxers.get()
        // AVERROR(EPERM), through the av_strerror looked up.
        #expect(decoding.describe(-1) == "operation not permitted")
    }

    @Test func aFunctionTheLibraryLacksIsALoadFailureNamingItAndThePackage() throws {
        let handles = try FFmpegLibrary.open([Self.libavutil]).get()
        let _: @convention(c) (Int32) -> Void = try handles.function("av_log_set_level", in: "libavutil")
        do {
            let _: @convention(c) () -> Void = try handles.function("av_no_such_function", in: "libavutil")
            Issue.record("dlsym found av_no_such_function")
        } catch {
            #expect(error.message.contains("has no function av_no_such_function"), "\(error.message)")
            #expect(error.message.contains("libavutil57"), "the message names the Debian package: \(error.message)")
        }
    }

    /// libz in place of libavcodec: it loads, and has none of libavcodec's functions.
    @Test func aLibraryWithoutTheFunctionsIsALoadFailureNotACrash() throws {
        let impostor = FFmpegLibrary.Library(name: "libavcodec", sonames: ["libz.so.1"], package: "libavcodec59")
        let handles = try FFmpegLibrary.open([Self.libavutil, impostor]).get()
        #expect {
            _ = try FFmpegFunctions(handles)
        } throws: { error in
            let message = (error as? FFmpegLibrary.LoadFailure)?.message ?? ""
            return message.contains("libz.so.1") && message.contains("has no function avcodec_alloc_context3") && message.contains("libavcodec59")
        }
    }

    @Test func aLibraryThatCannotBeFoundIsALoadFailureNamingThePackage() {
        let missing = FFmpegLibrary.Library(name: "libavcodec", sonames: ["libavcodec-raudio-absent.so.59"], package: "libavcodec59")
        guard case .failure(let failure) = FFmpegLibrary.open([Self.libavutil, missing]) else {
            Issue.record("a library that does not exist was opened")
            return
        }
        #expect(failure.message.contains("FFmpeg's libavcodec could not be loaded"), "\(failure.message)")
        #expect(failure.message.contains("libavcodec59"), "\(failure.message)")
    }
}
