// SPDX-License-Identifier: GPL-3.0-or-later
/// What a content element is in its document: a heading, body text, a footnote, an image...
///
/// `name` is a stable lowercase word used by `raudio text --skip` and in JSON output: `heading`,
/// `body`, `quote`, `footnote`, `endnote`, `aside`, `pagebreak`, `listitem`, `caption`, `tablecell`,
/// `image`, `audio`, `video`, and `noteref` (an inline run of text, see `TextContentElement.InlineRun`).
public enum ContentRole: Sendable, Hashable, CustomStringConvertible {
    /// `h1`...`h6`, with the level from 1 to 6.
    case heading(level: Int)
    case body
    /// `blockquote`, `q`.
    case quote
    /// The body of a footnote (`epub:type="footnote"`, `role="doc-footnote"`).
    case footnote
    /// The body of an endnote or rearnote (`epub:type="endnote|rearnote"`, `role="doc-endnote"`).
    case endnote
    /// An `aside` or a sidebar that is not a note.
    case aside
    /// A page-break marker (`epub:type="pagebreak"`, `role="doc-pagebreak"`), usually a page number.
    case pageBreak
    /// A note reference inside text (`epub:type="noteref"`, `role="doc-noteref"`), usually a number or
    /// a symbol: never the role of an element, only of an inline run of a segment's text.
    case noteRef
    case listItem
    /// `figcaption`, a table `caption`.
    case caption
    case tableCell
    case image
    case audio
    case video

    /// Whether it is content beside the main flow (a note, an aside): its role is the role of everything
    /// inside it, a heading or a list of a note included, so that skipping notes skips their headings too.
    public var isBesideTheFlow: Bool {
        switch self {
        case .footnote, .endnote, .aside: true
        default: false
        }
    }

    /// The stable lowercase name of the role.
    public var name: String {
        switch self {
        case .heading: "heading"
        case .body: "body"
        case .quote: "quote"
        case .footnote: "footnote"
        case .endnote: "endnote"
        case .aside: "aside"
        case .pageBreak: "pagebreak"
        case .noteRef: "noteref"
        case .listItem: "listitem"
        case .caption: "caption"
        case .tableCell: "tablecell"
        case .image: "image"
        case .audio: "audio"
        case .video: "video"
        }
    }

    /// Every role name, for validating user input.
    public static let allNames: [String] = [
        "heading", "body", "quote", "footnote", "endnote", "aside", "pagebreak", "listitem", "caption", "tablecell",
        "image", "audio", "video", "noteref",
    ]

    /// Names that stand for several roles in a list of roles to skip: `media` for `audio` and `video`.
    public static let groupNames: [String: Set<String>] = ["media": ["audio", "video"]]

    /// The role names of a comma-separated list (`footnote,media`), lowercased, groups expanded; throws
    /// `UnknownRoleName` for a name that is neither a role nor a group.
    public static func names(inList list: String) throws(UnknownRoleName) -> Set<String> {
        var names = Set<String>()
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !name.isEmpty {
            if let group = groupNames[name] {
                names.formUnion(group)
            } else if allNames.contains(name) {
                names.insert(name)
            } else {
                throw UnknownRoleName(name: name)
            }
        }
        return names
    }

    /// Roles a reader aloud usually skips: they interrupt the flow of the main text (a note reference
    /// would be read as a bare number in the middle of a sentence).
    public static let skippableNames: Set<String> = ["pagebreak", "footnote", "endnote", "aside", "noteref"]

    /// Whether a reader aloud would usually skip this role (see `skippableNames`).
    public var isSkippable: Bool { Self.skippableNames.contains(name) }

    public var description: String {
        if case .heading(let level) = self { return "heading(\(level))" }
        return name
    }
}

/// A name in a list of roles that is no role: `message` says which names there are.
public struct UnknownRoleName: Error, Sendable, Hashable {
    public var name: String

    public var message: String {
        "unknown role '\(name)'; use \((ContentRole.allNames + ContentRole.groupNames.keys.sorted()).joined(separator: ", "))"
    }
}
