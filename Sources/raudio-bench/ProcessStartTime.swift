import Foundation

/// When this process started, read from `/proc/self/stat` (field 22, `starttime`, in clock ticks
/// since boot), to time "from process start" with the exec and dynamic loading included.
enum ProcessStartTime {
    /// Seconds from this process's start to now, on the boot-time clock the kernel uses for
    /// `starttime` (`CLOCK_BOOTTIME`); nil when /proc is unreadable.
    static func secondsSinceStart() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let closing = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name, which may hold spaces: field 3 (state) is the first.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let uptime = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return uptime - ticks / ticksPerSecond
    }
}
