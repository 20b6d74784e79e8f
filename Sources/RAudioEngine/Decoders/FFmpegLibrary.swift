// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// FFmpeg's libraries, loaded with `dlopen` the first time a track needs them, not linked.
///
/// Debian's libavcodec pulls in some 150 shared libraries (video codecs among them): linked, they were
/// loaded into every raudio process at start, costing about 25 ms and 20 MB even for an MP3 book. Loaded
/// here on first use, only a book with an FFmpeg format pays. The headers still come from CFFmpeg (types,
/// struct layouts); the functions raudio calls are looked up by name (`dlsym`) in the libraries of FFmpeg
/// 5.1 (sonames libavformat.so.59, libavcodec.so.59, libavutil.so.57), every one of them when the
/// libraries load: a library without one of them is a `LoadFailure` naming it, as a missing library is,
/// and the functions exist only inside a successful load (`FFmpegFunctions`, `FFmpegDemuxers`), so none
/// can be called before the check or after a failed one.
///
/// Not through CLazyLibrary (as libespeak-ng, libpulse and libsystemd are): that loads one soname per
/// library, while FFmpeg is three libraries tried at several sonames each, in two steps (the decoders,
/// then the demuxers only for a file raudio's own readers leave to FFmpeg), and its 35 functions would
/// need C forwarders in a C target of their own instead of this one list.
enum FFmpegLibrary {
    /// libavutil and libavcodec's functions: decoding (raudio's MP4 reader needs no more), or why they
    /// could not be loaded (said by every FFmpeg decoder's error).
    /// FFmpeg's own log goes through raudio's from then on (`FFmpegLog`).
    static let shared: Result<FFmpegFunctions, LoadFailure> = open(libraries.filter { $0.name != "libavformat" })
        .flatMap { handles in Result { () throws(LoadFailure) in try FFmpegFunctions(handles) } }
        .map { functions in
            FFmpegLog.install(functions)
            return functions
        }

    /// The decoding functions and libavformat's, FFmpeg's demuxers: some 40 more shared libraries
    /// (network protocols, disc and tracker formats) and about 9 MB, loaded only for a file raudio's
    /// own readers leave to FFmpeg.
    static let withDemuxers: Result<FFmpegDemuxers, LoadFailure> = shared.flatMap { decoding in
        open(libraries.filter { $0.name == "libavformat" }).flatMap { handles in
            Result { () throws(LoadFailure) in try FFmpegDemuxers(handles, decoding: decoding) }
        }
    }

    /// Why FFmpeg cannot be used: a library missing, or without a function raudio calls.
    struct LoadFailure: Error, Sendable {
        let message: String
    }

    /// One of FFmpeg's libraries: the sonames tried, newest first, and the Debian package holding it.
    struct Library: Sendable {
        var name: String
        var sonames: [String]
        var package: String
    }

    /// Debian 12 ships libavutil.so.57, libavcodec.so.59 and libavformat.so.59.
    static let libraries: [Library] = [
        Library(name: "libavutil", sonames: ["libavutil.so.57", "libavutil.so.58", "libavutil.so"], package: "libavutil57"),
        Library(name: "libavcodec", sonames: ["libavcodec.so.59", "libavcodec.so.60", "libavcodec.so"], package: "libavcodec59"),
        Library(name: "libavformat", sonames: ["libavformat.so.59", "libavformat.so.60", "libavformat.so"], package: "libavformat59"),
    ]

    /// Libraries opened with `dlopen` (never closed: the functions looked up in them live as long).
    struct Handles: @unchecked Sendable {
        fileprivate var opened: [(library: Library, soname: String, handle: UnsafeMutableRawPointer)]

        /// The function `name` of `library` (one of those opened), as the C function type `T`; wraps `dlsym`.
        func function<T>(_ name: String, in library: String, as type: T.Type = T.self) throws(LoadFailure) -> T {
            guard let owner = opened.first(where: { $0.library.name == library }) else {
                throw LoadFailure(message: "FFmpeg's \(library) is not among the libraries loaded for \(name)")
            }
            dlerror()
            guard let symbol = dlsym(owner.handle, name) else {
                let reason = dlerror().map { String(cString: $0) } ?? "no such symbol"
                throw LoadFailure(message: "FFmpeg's \(library) (\(owner.soname)) has no function \(name) (\(reason)): not FFmpeg 5.1 or newer; install the Debian package \(owner.library.package) with `make deps`")
            }
            return unsafeBitCast(symbol, to: type)
        }
    }

    /// Opens `libraries` with `dlopen`, each at the first of its sonames found.
    static func open(_ libraries: [Library]) -> Result<Handles, LoadFailure> {
        var opened: [(library: Library, soname: String, handle: UnsafeMutableRawPointer)] = []
        for library in libraries {
            dlerror()
            guard let (soname, handle) = library.sonames.lazy.compactMap({ soname in dlopen(soname, RTLD_NOW | RTLD_LOCAL).map { (soname, $0) } }).first else {
                let reason = dlerror().map { String(cString: $0) } ?? "not found"
                return .failure(LoadFailure(message: "FFmpeg's \(library.name) could not be loaded (\(reason)); install it with `make deps` (Debian package \(library.package))"))
            }
            opened.append((library, soname, handle))
        }
        return .success(Handles(opened: opened))
    }
}
