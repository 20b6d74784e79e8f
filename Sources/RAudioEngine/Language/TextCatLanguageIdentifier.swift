// SPDX-License-Identifier: GPL-3.0-or-later
import CExtTextCat
import Foundation
import ReadiumShared

/// The language of a text, by libexttextcat's n-gram fingerprints (Debian libexttextcat-data, some 160
/// languages): what EPUB content that declares no language is read in.
///
/// One classifier for the process, made on first use (about 10 ms: it reads every fingerprint); calls are
/// serialized (the classifier keeps state between them). A text under `minimumLetters` letters is not
/// classified: n-grams of a heading or a caption tell little.
public final class TextCatLanguageIdentifier: LanguageIdentifier, @unchecked Sendable {
    /// The folder of the fingerprints and their configuration.
    public static let dataFolder = "/usr/share/libexttextcat/"
    public static let shared = TextCatLanguageIdentifier()

    /// The fewest letters a text must have to be classified.
    public let minimumLetters = 60
    /// The classifier, made on first use (nil inside when the fingerprints cannot be read).
    private let handle = Locked<UnsafeMutableRawPointer??>(nil)

    private init() {}

    /// Whether the fingerprints could be read (libexttextcat-data installed).
    public var isAvailable: Bool { handle.withLock { Self.loaded(&$0) != nil } }

    private static func loaded(_ handle: inout UnsafeMutableRawPointer??) -> UnsafeMutableRawPointer? {
        if case .none = handle { handle = .some(special_textcat_Init(dataFolder + "fpdb.conf", dataFolder)) }
        return handle ?? nil
    }

    public func candidates(for text: String) -> [Language] {
        guard text.unicodeScalars.lazy.filter(\.properties.isAlphabetic).count >= minimumLetters else { return [] }
        // A few thousand bytes suffice (the library's own advice: "a few hundred"); more only costs time.
        let sample = String(text.utf8.prefix(4096)) ?? String(text.prefix(2000))
        let result: String? = handle.withLock { state in
            guard let handle = Self.loaded(&state) else { return nil }
            return sample.withCString { textcat_Classify(handle, $0, strlen($0)) }.map { String(cString: $0) }
        }
        guard let result, result.hasPrefix("[") else { return [] }  // "SHORT" or "UNKNOWN"
        return result.dropFirst().dropLast().components(separatedBy: "][").compactMap(Self.language(ofCategory:))
    }

    /// `en--utf8` → `en`, `zh-CN-utf8` → `zh-CN` (the fingerprint names of fpdb.conf).
    static func language(ofCategory name: String) -> Language? {
        var code = name.hasSuffix("-utf8") ? String(name.dropLast(5)) : name
        while code.hasSuffix("-") { code.removeLast() }
        return code.isEmpty ? nil : Language(code: code)
    }
}
