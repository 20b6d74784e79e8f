// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// RFC 6570 URI templates, as OPDS 2 templated links use them (`search{?query}`, `borrow{&authentication_token}`).
///
/// Level 3 expressions: `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`, `{?var}`, `{&var}`, each with
/// one or more names; a variable without a value is left out, as the RFC says.
public enum URITemplate {
    /// `template` with `values` put in.
    public static func expand(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            var expression = rest[rest.index(after: open)..<close]
            var operation: Character? = nil
            if let first = expression.first, "+#./;?&".contains(first) {
                operation = first
                expression = expression.dropFirst()
            }
            let names = expression.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            let defined = names.compactMap { name in values[name].map { (name, $0) } }
            if !defined.isEmpty {
                let reserved = operation == "+" || operation == "#"
                let encode = { (value: String) in reserved ? percentEncoded(value, keepingReserved: true) : percentEncoded(value) }
                switch operation {
                case "?", "&":
                    result += String(operation!) + defined.map { "\($0)=\(encode($1))" }.joined(separator: "&")
                case ";":
                    result += defined.map { ";\($0)" + ($1.isEmpty ? "" : "=\(encode($1))") }.joined()
                case ".", "/":
                    result += defined.map { String(operation!) + encode($1) }.joined()
                case "#":
                    result += "#" + defined.map { encode($1) }.joined(separator: ",")
                default:
                    result += defined.map { encode($1) }.joined(separator: ",")
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The names of the variables of `template`.
    public static func variables(of template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            var expression = rest[rest.index(after: open)..<close]
            if let first = expression.first, "+#./;?&".contains(first) { expression = expression.dropFirst() }
            names += expression.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// `value` percent-encoded, RFC 3986's unreserved characters kept (and its reserved ones with `keepingReserved`).
    public static func percentEncoded(_ value: String, keepingReserved: Bool = false) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        if keepingReserved { allowed.insert(charactersIn: ":/?#[]@!$&'()*+,;=") }
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
