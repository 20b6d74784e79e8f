// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// What a clip of a render points at in its content document: the utterance's element and the part of its
/// text spoken (`SpeechUtterance.narrationTarget`), marked by `MediaOverlayEPUBWriter` in the written EPUB.
enum NarrationTargets {
    /// The whole utterance: its locator, its element's text and the UTF-8 range of that text it reads.
    static func target(of utterance: SpeechUtterance) -> NarrationTarget {
        utterance.narrationTarget
    }

    /// The word at `range` of the utterance's text (`TTSWordBoundary.range`).
    static func target(of utterance: SpeechUtterance, wordAt range: Range<String.Index>) -> NarrationTarget {
        utterance.narrationTarget(forWordAt: range)
    }
}
