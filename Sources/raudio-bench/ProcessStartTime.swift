// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// When this process started, read from `/proc/self/stat` (field 22, `starttime`, in clock ticks
/// since boot), to time "from process start" with the exec and dynamic loading included.
///
/// `starttime` has the resolution of one clock tick (10 ms with CLK_TCK = 100) and is rounded down,
/// so a time measured from it is up to one tick longer than the truth: quote medians over many
/// processes.
enum ProcessStartTime {
    /// Seconds from boot to this process's start, on `CLOCK_BOOTTIME`; nil when /proc is unreadable.
    static func startBootSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let closing = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name, which may hold spaces: field 3 (state) is the first.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds since boot now (`CLOCK_BOOTTIME`, the clock `starttime` counts on). Cheap: no file read.
    static func bootTimeNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds from this process's start to now; nil when /proc is unreadable.
    static func secondsSinceStart() -> Double? {
        startBootSeconds().map { bootTimeNow() - $0 }
    }
}
