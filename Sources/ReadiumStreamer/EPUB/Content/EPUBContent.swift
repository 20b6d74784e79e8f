// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The content of an EPUB from a starting point: the resource to start in and the locator to find.
struct EPUBContent: Content {
    let service: EPUBContentService
    let startIndex: Int
    let startLocator: Locator?

    func iterator() -> any ContentIterator {
        EPUBContentIterator(service: service, startIndex: startIndex, startLocator: startLocator)
    }
}
