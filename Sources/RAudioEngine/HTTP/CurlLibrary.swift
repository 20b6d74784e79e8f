// SPDX-License-Identifier: GPL-3.0-or-later
import CCurl
import Foundation

/// libcurl, loaded with `dlopen` the first time a remote publication is fetched, not linked.
///
/// Debian's libcurl brings some 25 shared libraries (OpenSSL, GnuTLS, Kerberos, LDAP, SSH, IDN):
/// linked, they were loaded and relocated in every raudio process, about 6 MB of resident memory and
/// part of the start-up time even for a local MP3. Loaded here on first use, only a remote book pays.
/// The headers still come from CCurl (types, option numbers); the functions are looked up by name in
/// `libcurl.so.4` and called through the properties below, the variadic `curl_easy_setopt` and
/// `curl_easy_getinfo` through CCurl's typed wrappers (`raudio_curl_setopt_long(setopt, ...)`).
/// `curl_global_init` runs once, right after loading. Any thread.
struct CurlLibrary: @unchecked Sendable {
    /// The loaded library, or why it could not be loaded (said by every remote fetch's error).
    static let shared: Result<CurlLibrary, LoadFailure> = load()

    struct LoadFailure: Error {
        let message: String
    }

    let easyInit: @convention(c) () -> UnsafeMutableRawPointer?
    let easyCleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let easyPerform: @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    let versionInfo: @convention(c) (CURLversion) -> UnsafeMutablePointer<curl_version_info_data>?
    /// `curl_slist_append` and `curl_slist_free_all`: the list of a request's extra headers (`CURLOPT_HTTPHEADER`).
    let slistAppend: @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    let slistFreeAll: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
    /// `curl_easy_setopt` and `curl_easy_getinfo`, for CCurl's typed wrappers.
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer

    private static let sonames = ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"]

    private static func load() -> Result<CurlLibrary, LoadFailure> {
        guard let handle = sonames.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(LoadFailure(message: "libcurl could not be loaded (\(reason)); install it with `make deps` (Debian package libcurl4)"))
        }
        func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
        guard let easyInit = symbol("curl_easy_init"), let easyCleanup = symbol("curl_easy_cleanup"),
              let easyPerform = symbol("curl_easy_perform"), let easyStrerror = symbol("curl_easy_strerror"),
              let versionInfo = symbol("curl_version_info"), let globalInit = symbol("curl_global_init"),
              let setopt = symbol("curl_easy_setopt"), let getinfo = symbol("curl_easy_getinfo"),
              let slistAppend = symbol("curl_slist_append"), let slistFreeAll = symbol("curl_slist_free_all")
        else {
            return .failure(LoadFailure(message: "the libcurl found lacks curl_easy_* functions: not libcurl 7"))
        }
        typealias GlobalInit = @convention(c) (Int) -> CURLcode
        _ = unsafeBitCast(globalInit, to: GlobalInit.self)(Int(CURL_GLOBAL_DEFAULT))
        return .success(CurlLibrary(
            easyInit: unsafeBitCast(easyInit, to: (@convention(c) () -> UnsafeMutableRawPointer?).self),
            easyCleanup: unsafeBitCast(easyCleanup, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
            easyPerform: unsafeBitCast(easyPerform, to: (@convention(c) (UnsafeMutableRawPointer?) -> CURLcode).self),
            easyStrerror: unsafeBitCast(easyStrerror, to: (@convention(c) (CURLcode) -> UnsafePointer<CChar>?).self),
            versionInfo: unsafeBitCast(versionInfo, to: (@convention(c) (CURLversion) -> UnsafeMutablePointer<curl_version_info_data>?).self),
            slistAppend: unsafeBitCast(slistAppend, to: (@convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?).self),
            slistFreeAll: unsafeBitCast(slistFreeAll, to: (@convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void).self),
            setopt: setopt, getinfo: getinfo))
    }
}
