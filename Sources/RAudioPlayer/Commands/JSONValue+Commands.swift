// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension JSONValue {
    /// Parses one command line as JSON (strict: trailing commas, NaN and comments are refused); nil when invalid.
    public static func parse(_ text: Substring) -> JSONValue? {
        try? JSONParser.parse(Array(text.utf8))
    }

    /// Compact JSON text, as bytes.
    public var data: Data { Data(serialized().utf8) }
}
