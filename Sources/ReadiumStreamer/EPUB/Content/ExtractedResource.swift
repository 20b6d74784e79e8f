// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The content elements of one reading-order resource, extracted whole when the iterator reaches it.
struct ExtractedResource: Sendable {
    var href: String
    var elements: [ExtractedElement]
    /// What was worked around while extracting (an `ssml:ph` in an unknown alphabet).
    var warnings: [ParsingWarning] = []
}

/// A content element and the selectors that designate it, to find where to start.
struct ExtractedElement: Sendable {
    var element: any ContentElement
    /// Its own `locations.cssSelector`.
    var ownSelector: String?
    /// Selectors of its ancestors and of the inline or empty elements inside or just before it
    /// (`#page12` of an empty page marker): a locator with one of them starts at this element.
    var matchingSelectors: Set<String>
}
