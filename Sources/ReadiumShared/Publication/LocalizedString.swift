// SPDX-License-Identifier: GPL-3.0-or-later
/// A string that may be translated: RWPM allows either a plain string or a map from BCP-47 tag to text.
public enum LocalizedString: Sendable, Hashable {
    case plain(String)
    /// Translations, in the order the manifest gives them.
    case localized(JSONObject)

    /// The text to show: the plain string, else the translation for `language` (or its base language),
    /// else `und`, else `en`, else the first one.
    public func string(for language: String? = nil) -> String {
        switch self {
        case .plain(let string): return string
        case .localized(let translations):
            var candidates: [String] = []
            if let language {
                candidates.append(language)
                if let base = language.split(separator: "-").first { candidates.append(String(base)) }
            }
            candidates += ["und", "en"]
            for candidate in candidates {
                if let text = translations[candidate]?.stringValue { return text }
            }
            return translations.lazy.compactMap(\.value.stringValue).first ?? ""
        }
    }

    public var string: String { string(for: nil) }

    /// Parses a plain string or a language map; nil (with a warning) otherwise.
    public static func parse(_ reader: LenientJSONReader, key: String) -> LocalizedString? {
        guard let value = reader.object[key], value != .null else { return nil }
        switch value {
        case .string(let string): return .plain(string)
        case .object(let object):
            var translations = JSONObject()
            for (language, text) in object {
                if case .string = text { translations[language] = text } else {
                    reader.warn("\(key).\(language)", "expected a string, found \(text.kindName); ignored")
                }
            }
            return translations.isEmpty ? nil : .localized(translations)
        default:
            reader.warn(key, "expected a string or a language map, found \(value.kindName); ignored")
            return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .plain(let string): .string(string)
        case .localized(let translations): .object(translations)
        }
    }
}
