// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The RFC 6570 templates of LCP links (`templated: true`): `https://lsd/licenses/ID/renew{?end,id,name}`.
///
/// Expands simple `{name}` and form-style query `{?a,b}` / continuation `{&a,b}` expressions, the forms LSD
/// servers use; a variable without a value is left out, values are percent-encoded (unreserved kept).
enum URITemplate {
    static func expand(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                result += rest[open...]
                return result
            }
            var expression = rest[rest.index(after: open)..<close]
            let prefix = expression.first
            if prefix == "?" || prefix == "&" { expression = expression.dropFirst() }
            let names = expression.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            let pairs = names.compactMap { name in values[name].map { (name, encode($0)) } }
            switch prefix {
            case "?", "&":
                if !pairs.isEmpty {
                    let query = pairs.map { "\($0)=\($1)" }.joined(separator: "&")
                    let joiner = prefix == "&" || result.contains("?") ? "&" : "?"
                    result += joiner + query
                }
            default:
                result += pairs.map(\.1).joined(separator: ",")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
