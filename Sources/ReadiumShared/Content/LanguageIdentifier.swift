// SPDX-License-Identifier: GPL-3.0-or-later
/// Finds the language of a text that declares none (EPUB 3.3 §4.1.2: a reading system takes the language of
/// content from the content, never from the package's `dc:language`).
///
/// RAudioEngine's `TextCatLanguageIdentifier` is one, with libexttextcat.
public protocol LanguageIdentifier: Sendable {
    /// The languages `text` may be in, the likeliest first; empty when it is too short or unlike any.
    /// Give it a whole document's or block's text: a short sentence alone is a guess.
    func candidates(for text: String) -> [Language]
}

/// Where a segment's language comes from.
public enum LanguageSource: String, Sendable, Hashable {
    /// `xml:lang` or `lang` on the content.
    case declared
    /// Identified from the content document's own text (`LanguageIdentifier`).
    case identified
    /// The publication's `dc:language`: the content declares none, and its text was too short to tell while the
    /// user's locale names no language, or no identifier was given.
    case publication
    /// The user's language (the locale's: `LC_ALL`, `LC_MESSAGES`, `LANG`): the content declares none and its
    /// text is too short to tell. A content document does not inherit the package's `dc:language` (W3C
    /// epub-tests `pkg-lang_but_not_content`): where nothing tells, it is read as a browser would, in the user's.
    case user
    /// Given by the reader for text that declares none (`raudio speak --language`).
    case forced
}
