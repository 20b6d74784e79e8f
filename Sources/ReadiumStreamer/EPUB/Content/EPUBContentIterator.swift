// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Iterates the elements of an EPUB, holding one extracted resource at a time.
///
/// The starting resource is extracted on the first call, and the others only when the iterator moves
/// into them, so starting in chapter 100 never parses chapters 1 to 99. Not thread-safe: use from one
/// thread at a time; calls block while a resource is read and parsed.
final class EPUBContentIterator: ContentIterator {
    private let service: EPUBContentService
    private var resourceIndex: Int
    private var startLocator: Locator?
    private var elements: [ExtractedElement] = []
    /// Between `elements[cursor - 1]` and `elements[cursor]`.
    private var cursor = 0
    private var isStarted = false

    init(service: EPUBContentService, startIndex: Int, startLocator: Locator?) {
        self.service = service
        self.resourceIndex = startIndex
        self.startLocator = startLocator
    }

    func next() throws(ContentError) -> (any ContentElement)? {
        startIfNeeded()
        while true {
            if cursor < elements.count {
                cursor += 1
                return elements[cursor - 1].element
            }
            guard resourceIndex + 1 < service.readingOrder.count else { return nil }
            load(resourceIndex + 1)
            cursor = 0
        }
    }

    func previous() throws(ContentError) -> (any ContentElement)? {
        startIfNeeded()
        while true {
            if cursor > 0 {
                cursor -= 1
                return elements[cursor].element
            }
            guard resourceIndex > 0 else { return nil }
            load(resourceIndex - 1)
            cursor = elements.count
        }
    }

    private func load(_ index: Int) {
        resourceIndex = index
        elements = service.extractResource(at: index).elements
    }

    private func startIfNeeded() {
        guard !isStarted else { return }
        isStarted = true
        guard !service.readingOrder.isEmpty else { return }
        load(resourceIndex)
        if let startLocator {
            cursor = ContentStartResolver(elements: elements, warnings: service.warnings).startIndex(for: startLocator)
        }
    }
}
