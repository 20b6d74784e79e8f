// SPDX-License-Identifier: GPL-3.0-or-later
import Testing

@testable import ReadiumShared

@Suite struct MediaFragmentTests {
    @Test(arguments: [
        ("t=30", 30.0, nil), ("#t=30.5", 30.5, nil), ("t=10,20", 10.0, 20.0), ("t=,40", nil, 40.0),
        ("t=npt:1:02:03.5", 3723.5, nil), ("t=02:03", 123.0, nil), ("id=x&t=7", 7.0, nil), ("t=389.84", 389.84, nil),
    ] as [(String, Double?, Double?)])
    func parsesEveryForm(text: String, begin: Double?, end: Double?) throws {
        let fragment = try #require(MediaFragment(parsing: text))
        #expect(fragment.begin == begin)
        #expect(fragment.end == end)
    }

    @Test(arguments: ["t=", "t=abc", "t=-5", "t=20,10", "x=3", "t=1:75", "t=1,2,3", "t=inf"])
    func rejectsMalformedFragments(text: String) {
        #expect(MediaFragment(parsing: text) == nil)
    }

    @Test func formatsWithMillisecondPrecision() {
        #expect(MediaFragment(begin: 30).description == "t=30")
        #expect(MediaFragment(begin: 30.1234).description == "t=30.123")
        #expect(MediaFragment(begin: 0.0005).description == "t=0.001")
        #expect(MediaFragment(begin: 10, end: 20.5).description == "t=10,20.5")
        #expect(MediaFragment(begin: nil, end: 40).description == "t=,40")
    }

    @Test func formattedFragmentsParseBack() throws {
        for seconds in stride(from: 0.0, to: 7200, by: 123.457) {
            let parsed = try #require(MediaFragment(parsing: MediaFragment(begin: seconds).description))
            #expect(abs(parsed.begin! - seconds) <= 0.0005)
        }
    }
}
