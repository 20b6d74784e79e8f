// SPDX-License-Identifier: GPL-3.0-or-later
/// How far back to start after a pause, by how long the pause lasted, as audiobook players do: the
/// listener has lost the thread a little after minutes, more after hours.
public struct AutoRewind: Sendable, Equatable {
    /// (pause at least this long in seconds, rewind this many seconds), longest pause first.
    public var steps: [(pause: Double, rewind: Double)]

    public static let standard = AutoRewind(steps: [(86_400, 30), (3_600, 10), (600, 5), (60, 2)])
    public static let off = AutoRewind(steps: [])

    public init(steps: [(pause: Double, rewind: Double)]) {
        self.steps = steps.sorted { $0.pause > $1.pause }
    }

    /// Parses `60:2,600:5,3600:10` (after a pause of at least 60 s, go back 2 s; ...) or `off`; nil
    /// when malformed (times in seconds, or with a unit: `1m:2`, `1h:10s`).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "off" || trimmed == "0" {
            self = .off
            return
        }
        var steps: [(pause: Double, rewind: Double)] = []
        for item in trimmed.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let pause = Self.seconds(parts[0]), let rewind = Self.seconds(parts[1]), pause >= 0, rewind >= 0, rewind <= 600 else {
                return nil
            }
            steps.append((pause, rewind))
        }
        guard !steps.isEmpty else { return nil }
        self.init(steps: steps)
    }

    /// `90`, `90s`, `5m`, `2h`, `1d` as seconds.
    private static func seconds(_ text: Substring) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last.flatMap({ units[$0] }) { return Double(text.dropLast()).map { $0 * unit } }
        return Double(text)
    }

    /// Seconds to go back after a pause of `pause` seconds (nothing under a minute).
    public func rewind(afterPause pause: Double) -> Double {
        steps.first { pause >= $0.pause }?.rewind ?? 0
    }

    public static func == (lhs: AutoRewind, rhs: AutoRewind) -> Bool {
        lhs.steps.elementsEqual(rhs.steps) { $0.pause == $1.pause && $0.rewind == $1.rewind }
    }
}
