// SPDX-License-Identifier: GPL-3.0-or-later
import Testing

@testable import ReadiumShared

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueAndKeepsKeyOrder() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": [true, false, null], "m": -2.5e1, "s": "é\u00e9\n", "big": 12345678901234}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "m", "s", "big"])
        #expect(object["z"] == .integer(1))
        #expect(object["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(object["m"] == .number(-25))
        #expect(object["s"] == .string("éé\n"))
        #expect(object["big"] == .integer(12_345_678_901_234))
    }

    @Test func trailingCommaInArrayIsReportedWithLineAndColumn() {
        let text = "{\n  \"readingOrder\": [\n    {\"href\": \"a.mp3\"},\n  ]\n}"
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            let syntax = error as! JSONParser.SyntaxError
            return syntax.line == 4 && syntax.column == 3 && syntax.message.contains("trailing comma")
        }
    }

    @Test func trailingCommaInObjectIsReported() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(#"{"a": 1,}"#) }
    }

    @Test(arguments: ["", "{", "[1 2]", "{\"a\" 1}", "tru", "01", "1.", "\"\\x\"", "\"abc", "{\"a\":1} x", "1e999", "\u{0}"])
    func malformedDocumentsThrowInsteadOfCrashing(text: String) {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func surrogatePairsDecodeToOneScalar() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test func serializationRoundTripsTextExactly() throws {
        let text = #"{"href":"a/b.mp3","n":[1,2.5,-3],"o":{"k":"v \"q\" \\ / é"},"t":true,"x":null}"#
        let value = try JSONParser.parse(text)
        #expect(value.serialized() == text)
        #expect(try JSONParser.parse(value.serialized(.pretty)) == value)
    }

    @Test func wholeDoublesAreWrittenAsIntegers() {
        #expect(JSONValue.number(of: 30.0).serialized() == "30")
        #expect(JSONValue.number(of: 0.25).serialized() == "0.25")
    }
}
