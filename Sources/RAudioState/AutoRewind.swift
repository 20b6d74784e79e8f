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

    /// Seconds to go back after a pause of `pause` seconds (nothing under a minute).
    public func rewind(afterPause pause: Double) -> Double {
        steps.first { pause >= $0.pause }?.rewind ?? 0
    }

    public static func == (lhs: AutoRewind, rhs: AutoRewind) -> Bool {
        lhs.steps.elementsEqual(rhs.steps) { $0.pause == $1.pause && $0.rewind == $1.rewind }
    }
}
