// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension PlayerStatus {
    /// Folds one event of the protocol in. Unknown events and keys are ignored, as any client must.
    mutating func apply(_ event: JSONValue, now: Double = Date().timeIntervalSince1970) {
        guard let fields = event.objectValue, let type = fields["type"]?.stringValue else { return }
        switch type {
        case "opened":
            applyOpened(fields["publication"]?.objectValue)
        case "state":
            if let state = fields["state"]?.stringValue {
                if state == "playing" { wasPlaying = true } else if state != "loading" { wasPlaying = false }
                if (state == "playing") != (self.state == "playing") { followSleepTimer(isPlaying: state == "playing", now: now) }
                self.state = state
            }
            takeLocator(fields["locator"])
        case "position":
            takeLocator(fields["locator"])
        case "track":
            trackIndex = fields["index"]?.intValue
            trackTitle = fields["title"]?.stringValue
            takeLocator(fields["locator"])
        case "chapter":
            if let number = fields["index"]?.intValue {
                chapterIndex = number - 1
                while chapters.count < number { chapters.append(Chapter(title: "", start: nil)) }
                chapters[number - 1].title = fields["title"]?.stringValue ?? chapters[number - 1].title
                if let start = fields["start"]?.doubleValue { chapters[number - 1].start = start }
            }
            takeLocator(fields["locator"])
        case "utterance":
            applyUtterance(fields)
        case "range":
            applyRange(fields["locator"])
        case "settings":
            if let speed = fields["speed"]?.doubleValue { self.speed = speed }
            if let volume = fields["volume"]?.doubleValue { self.volume = volume }
            if let pitch = fields["pitch"]?.doubleValue { self.pitch = pitch }
            if let voice = fields["voice"]?.stringValue { self.voice = voice }
        case "sleep":
            applySleep(fields, now: now)
        case "warning", "error":
            if let text = fields["message"]?.stringValue { message = Message(kind: type == "error" ? .error : .warning, text: text) }
        case "bookmark":
            if let id = fields["id"]?.intValue { message = Message(kind: .info, text: "bookmark \(id) saved") }
        case "ack":
            if let command = fields["command"]?.stringValue, ["seek", "go", "chapter", "next", "previous", "forward", "back"].contains(command) {
                jumps += 1
            }
        default:
            break
        }
    }

    private mutating func applyOpened(_ publication: JSONObject?) {
        guard let publication else { return }
        title = publication["title"]?.stringValue ?? title
        duration = publication["duration"]?.doubleValue ?? duration
        if let authors = publication["authors"]?.arrayValue?.compactMap(\.stringValue) { self.authors = authors }
        if let narrators = publication["narrators"]?.arrayValue?.compactMap(\.stringValue) { self.narrators = narrators }
    }

    private mutating func takeLocator(_ json: JSONValue?) {
        guard let locations = json?.objectValue?["locations"]?.objectValue else { return }
        totalProgression = locations["totalProgression"]?.doubleValue
        locatorCount += 1
    }

    private mutating func applyUtterance(_ fields: JSONObject) {
        guard let json = fields["locator"], let locator = try? Locator(json: json) else { return }
        takeLocator(json)
        if let voice = fields["voice"]?.stringValue { self.voice = voice }
        let pageText = locator.text.highlight ?? fields["text"]?.stringValue ?? ""
        sentence = pageText
        word = nil
    }

    /// Finds the word of a `range` event in the sentence: of the places the word occurs, the one whose
    /// text before it in the sentence agrees longest with the locator's `text.before` (a word can be
    /// said twice in one sentence).
    private mutating func applyRange(_ json: JSONValue?) {
        guard let json, let locator = try? Locator(json: json), let sentence, let heard = locator.text.highlight, !heard.isEmpty else { return }
        let before = locator.text.before ?? ""
        var best: (range: Range<String.Index>, agreement: Int)?
        var searchStart = sentence.startIndex
        while let found = sentence.range(of: heard, range: searchStart..<sentence.endIndex) {
            let prefix = sentence[..<found.lowerBound]
            let agrees = before.hasSuffix(prefix) || prefix.hasSuffix(before)
            let agreement = agrees ? min(prefix.count, before.count) : -1
            if best == nil || agreement > best!.agreement { best = (found, agreement) }
            searchStart = sentence.index(after: found.lowerBound)
        }
        word = best?.range
    }

    private mutating func applySleep(_ fields: JSONObject, now: Double) {
        switch fields["state"]?.stringValue {
        case "set", "running":
            isSleepFading = false
            if fields["until"]?.stringValue == "chapter" {
                sleep = .endOfChapter
            } else if let remaining = fields["remaining"]?.doubleValue {
                sleep = .after(remaining: remaining, since: now)
            }
        case "fading":
            isSleepFading = true
        case "fired", "off":
            if fields["state"]?.stringValue == "fired" { message = Message(kind: .info, text: "sleep timer: paused") }
            sleep = .off
            isSleepFading = false
        default:
            break
        }
    }

    /// Seconds until the sleep timer fires, counted down from its last event while playing (the timer
    /// counts listening time: it stands still while paused or loading, as the session's does).
    func sleepRemaining(now: Double = Date().timeIntervalSince1970) -> Double? {
        guard case .after(let remaining, let since) = sleep else { return nil }
        guard state == "playing" else { return remaining }
        return max(0, remaining - (now - since))
    }

    /// Holds the countdown when playback stops playing, and runs it again from now when it plays.
    private mutating func followSleepTimer(isPlaying: Bool, now: Double) {
        guard case .after(let remaining, let since) = sleep else { return }
        sleep = .after(remaining: isPlaying ? remaining : max(0, remaining - (now - since)), since: now)
    }
}
