// SPDX-License-Identifier: GPL-3.0-or-later
#if FUZZING
import Foundation

/// libFuzzer's per-input callback: runs the selected target over one input. Called on the main thread.
///
/// libFuzzer's runtime requires this symbol even when the driver is started through
/// `LLVMFuzzerRunDriver`; both call the same function. A crash, a sanitizer report, a timeout or an
/// allocation past `-rss_limit_mb` inside is a finding; thrown errors are the expected outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    FuzzTarget.selected.run(data)
    return 0
}
#endif
