// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import RAudioState

/// The options of `raudio play` that speech has no use for: position events by media time, loudness,
/// the cache of remote tracks, the auto-rewind on resuming (speech starts again at its sentence).
struct AudioPlaybackOptions: ParsableArguments {
    @Option(help: "Seconds of media time between position events.")
    var interval: Double = 0.5

    @Option(help: ArgumentHelp(
        "Disk cache of remote tracks' bytes in $XDG_CACHE_HOME/raudio, least recently used dropped first (512M by default; 0 turns it off).",
        valueName: "size"))
    var cacheSize: String?

    /// `--cache-size` in bytes (the default when not given).
    var cacheBytes: Int64 { cacheSize.flatMap(ByteSize.parse) ?? RemoteAccessSetup.defaultCacheBytes }

    @Flag(help: "Bring every track to the same loudness (EBU R 128, -18 LUFS), measured in the background and remembered.")
    var normalize = false

    @Flag(help: "Resume exactly where the book was left, without going back a little after a long pause.")
    var noAutoRewind = false

    @Option(help: ArgumentHelp(
        "How far to go back on resuming, by how long the book was paused: pause:rewind pairs, default 1m:2,10m:5,1h:10,1d:30 (seconds, or with s, m, h, d).",
        valueName: "steps"))
    var autoRewind: String?

    /// The auto-rewind in force: `--no-auto-rewind`, `--auto-rewind`, or the standard steps.
    var autoRewindSteps: AutoRewind {
        if noAutoRewind { return .off }
        return autoRewind.flatMap(AutoRewind.init(parsing:)) ?? .standard
    }

    mutating func validate() throws {
        if let cacheSize, ByteSize.parse(cacheSize) == nil {
            throw ValidationError("--cache-size \(cacheSize): give a size such as 512M, 2G or 0 (no cache)")
        }
        guard interval.isFinite, interval >= 0.05 else {
            throw ValidationError("--interval must be at least 0.05 seconds, for example --interval 0.5")
        }
        if let autoRewind, AutoRewind(parsing: autoRewind) == nil {
            throw ValidationError("--auto-rewind \(autoRewind): give pause:rewind pairs, for example --auto-rewind 1m:2,1h:10 (or off)")
        }
    }
}
