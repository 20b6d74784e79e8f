// SPDX-License-Identifier: GPL-3.0-or-later
import Testing

@testable import ReadiumStreamer

@Suite struct SMILClockValueTests {
    @Test(arguments: [
        ("01:02:03.5", 3723.5), ("0:00:10.001", 10.001), ("124:00:00", 446_400.0),
        ("02:03.5", 123.5), ("00:10.000", 10.0), ("05:20.235", 320.235),
        ("3.5s", 3.5), ("1500ms", 1.5), ("2min", 120.0), ("1h", 3600.0), ("2.1h", 7560.0), ("59.234", 59.234), ("0s", 0.0), ("12", 12.0),
    ])
    func everyValidFormGivesItsSeconds(text: String, seconds: Double) {
        let parsed = SMILClockValue.seconds(text)
        #expect(parsed != nil)
        #expect(abs((parsed ?? -1) - seconds) < 1e-9)
    }

    @Test(arguments: ["0:00:60.000", "0:200:00.000", "10m", "100:00.000", ".5s", "00:00:10.999ms", "", "abc", "-3s", "1:2:3", "inf", "nan", "1e3", "3.s", "٣s"])
    func invalidValuesAreRefused(text: String) {
        #expect(SMILClockValue.seconds(text) == nil)
    }
}
