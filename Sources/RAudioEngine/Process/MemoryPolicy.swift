// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
#if canImport(Glibc)
import CGlibcMalloc
import Glibc
#endif

/// How the process's allocator (glibc malloc) is tuned for hours of playback.
///
/// Speech and decoding allocate PCM buffers of tens to hundreds of kilobytes on several threads
/// (the eSpeak thread, the render thread, the cooperative pool). With glibc's defaults the mmap
/// threshold rises to the largest block ever freed, so later buffers of that size come from the
/// per-thread arenas, and memory freed there stays mapped: resident memory climbs to the largest
/// transient peak of the run and stays there, although the live heap is flat (a heaptrack profile
/// of a whole book spoken showed 7-12 MB live throughout while RSS rose by 5-10 MB).
///
/// `applyForLongPlayback()` fixes the mmap threshold (blocks from 64 KiB up are mapped and given
/// back when freed), returns free memory at the top of a heap past 128 KiB, and caps the arenas at
/// two. Call it once, first thing in `main`, before other threads start; `raudio` does. The
/// environment still wins: each setting is left alone when its `MALLOC_*_` variable is set.
public enum MemoryPolicy {
    /// Blocks this large or larger are mapped on their own and unmapped when freed.
    public static let mmapThresholdBytes: Int32 = 64 * 1024
    /// Free memory at the top of a heap beyond this is returned to the system.
    public static let trimThresholdBytes: Int32 = 128 * 1024
    /// Arenas malloc may create; few threads allocate, so two keep contention low.
    public static let arenaLimit: Int32 = 2

    /// Applies the settings above; returns the names of those glibc refused (normally none).
    @discardableResult
    public static func applyForLongPlayback(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        #if canImport(Glibc)
        var refused: [String] = []
        let settings: [(variable: String, option: Int32, value: Int32)] = [
            ("MALLOC_MMAP_THRESHOLD_", M_MMAP_THRESHOLD, mmapThresholdBytes),
            ("MALLOC_TRIM_THRESHOLD_", M_TRIM_THRESHOLD, trimThresholdBytes),
            ("MALLOC_ARENA_MAX", M_ARENA_MAX, arenaLimit),
        ]
        for setting in settings where environment[setting.variable] == nil {
            if mallopt(setting.option, setting.value) != 1 { refused.append(setting.variable) }
        }
        return refused
        #else
        return []
        #endif
    }
}
