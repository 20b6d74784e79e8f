// SPDX-License-Identifier: GPL-3.0-or-later
/// Recognizes files that operating systems and archivers leave behind and that are not content.
///
/// Junk: `.DS_Store`, `Thumbs.db`, `ehthumbs.db`, `desktop.ini` (any case), any dotfile, anything inside
/// a dot-folder, and anything under `__MACOSX/`. Used before building an informal audiobook's reading order.
public enum JunkFileFilter {
    private static let junkNames: Set<String> = [".ds_store", "thumbs.db", "ehthumbs.db", "desktop.ini", "icon\r"]

    /// Whether the file at `href` (a `/`-separated relative path) is junk.
    public static func isJunk(_ href: String) -> Bool {
        let segments = href.split(separator: "/")
        guard let name = segments.last else { return false }
        if junkNames.contains(name.lowercased()) { return true }
        return segments.contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
    }

    /// `hrefs` without the junk, order kept.
    public static func removingJunk(_ hrefs: [String]) -> [String] {
        hrefs.filter { !isJunk($0) }
    }
}
