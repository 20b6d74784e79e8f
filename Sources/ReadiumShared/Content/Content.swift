// SPDX-License-Identifier: GPL-3.0-or-later
/// The content of a publication from a starting point, iterated element by element.
///
/// Get one with `Publication.content(from:)`. Each call to `iterator()` gives an independent iterator
/// placed just before the starting element.
public protocol Content: Sendable {
    func iterator() -> any ContentIterator
}

/// Walks the elements of a publication forwards and backwards, loading resources as it reaches them.
///
/// Like a list iterator, it stands between two elements: `next()` returns the element after it and
/// moves past it, `previous()` returns the element before it and moves back, so `next()` then
/// `previous()` return the same element. Both return nil at the ends of the publication. Calls are
/// synchronous and may block on I/O while a resource is read and parsed: call them from a thread
/// you own (not in a loop on Swift's cooperative pool). An iterator is not thread-safe: use it from
/// one thread at a time.
public protocol ContentIterator: AnyObject {
    /// The element after the current position, or nil at the end.
    func next() throws(ContentError) -> (any ContentElement)?
    /// The element before the current position, or nil at the start.
    func previous() throws(ContentError) -> (any ContentElement)?
}

extension Content {
    /// Every element from the starting point to the end (reads every remaining resource).
    public func elements() throws(ContentError) -> [any ContentElement] {
        let iterator = iterator()
        var elements: [any ContentElement] = []
        while let element = try iterator.next() { elements.append(element) }
        return elements
    }
}
