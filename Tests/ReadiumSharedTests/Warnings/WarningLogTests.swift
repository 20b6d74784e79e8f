// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

struct WarningLogTests {
    @Test func aWarningReportedTwiceIsKeptOnceInItsFirstPlace() {
        let log = WarningLog()
        let repaired = ParsingWarning(source: "page.html", path: "line 3", message: "closed <p> left open")
        let other = ParsingWarning(source: "page.html", path: "line 9", message: "closed <p> left open")
        // A page read for its chapters' places, then for its text, is repaired alike twice.
        for warning in [repaired, other, repaired, other] { log.append(warning) }
        #expect(log.warnings == [repaired, other])
    }
}
