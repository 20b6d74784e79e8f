// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension HTMLContentDraft {
    /// `drafts`, one document's, with Project Gutenberg's header and licence made asides, recognised by their
    /// text as in a text file (`PlainText`), for books made before PG's ebookmaker marked them
    /// (`pg-boilerplate`): everything up to the block holding the `*** START OF THE PROJECT GUTENBERG EBOOK …`
    /// line, and everything from the block that starts the footer (`*** END OF …`, "End of the Project
    /// Gutenberg EBook of …", or the licence's heading "THE FULL PROJECT GUTENBERG LICENSE") on.
    /// `speak` skips asides unless `--skip` says otherwise.
    static func markingProjectGutenbergBoilerplate(_ drafts: [HTMLContentDraft]) -> [HTMLContentDraft] {
        var drafts = drafts
        let texts = drafts.map { draft -> String? in
            guard case .text = draft.kind else { return nil }
            return draft.text.uppercased()
        }
        func isMarker(_ text: String, _ word: String) -> Bool {
            guard text.contains("PROJECT GUTENBERG") else { return false }
            return text.contains("*** \(word) OF") || text.contains("***\(word) OF")
        }
        func startsFooter(_ text: String) -> Bool {
            isMarker(text, "END") || text.contains("THE FULL PROJECT GUTENBERG LICENSE")
                || text.hasPrefix("END OF THE PROJECT GUTENBERG") || text.hasPrefix("END OF PROJECT GUTENBERG")
        }
        if let start = texts.firstIndex(where: { $0.map { isMarker($0, "START") } ?? false }) {
            for index in 0...start { drafts[index].makeAside() }
        }
        if let end = texts.firstIndex(where: { $0.map(startsFooter) ?? false }) {
            for index in end..<drafts.count { drafts[index].makeAside() }
        }
        return drafts
    }

    /// Gives a text draft the role `.aside`; other drafts are left as they are.
    private mutating func makeAside() {
        guard case .text(let runs, _) = kind else { return }
        kind = .text(runs, .aside)
    }
}
