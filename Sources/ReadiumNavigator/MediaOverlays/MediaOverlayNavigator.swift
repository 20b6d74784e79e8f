// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Plays the narration of an EPUB with media overlays: each `par`'s audio clip in reading order,
/// gaplessly, with text-to-speech where there is no audio, reporting the text and audio locators.
///
/// The same machinery as `AudioNavigator` (the shared `PlaybackStateMachine`, an `AudioRenderer`
/// on its own thread, `AudioComponents`); its items are a `NarrationPlan`'s, built by a
/// `NarrationPlanBuilder`: playback starts once the first documents are planned, the text-to-speech
/// passages of the others are extracted on the builder's thread, and the render thread blocks on it
/// for an item not planned yet (commands that need one suspend, never blocking the actor). An
/// actor: commands become state-machine events; the renderer's reports come back in order and
/// become `events`.
public actor MediaOverlayNavigator {
    public nonisolated let events: AsyncStream<MediaOverlayNavigatorEvent>
    /// Builds the plan: the first documents at `init`, the rest on a thread of its own.
    let builder: NarrationPlanBuilder

    /// The plan as built so far (thread-safe snapshot): the first documents' items at least; while
    /// `isComplete` is false the later documents are still being read and `totalProgression` is
    /// left out of locators unless set by time. `completePlan()` waits for the whole plan.
    public nonisolated var plan: NarrationPlan { builder.plan }

    /// The whole plan, once the background thread has read every document.
    public func completePlan() async -> NarrationPlan { await builder.complete() }

    let configuration: AudioNavigatorConfiguration
    /// The state machine, the renderer and the common report handling (MediaOverlayNavigator+Reports).
    let session: RenderSession<NarrationTarget, MediaOverlayNavigatorEvent>

    var heardItem = 0
    var heardSeconds = 0.0
    var lastAnnounced: Int?
    var lastPositionEvent: (item: Int, seconds: Double)?
    var openedAny = false
    /// Audio files found missing: their `par`s are read with text-to-speech and have no audio position.
    var missingAudio: Set<String> = []

    /// Throws `.noAudio` when the plan is empty (nothing narrated and nothing to speak).
    /// `engine` reads items without audio; nil leaves them out with a warning.
    public init(publication: Publication, components: AudioComponents, engine: (any TTSEngine)?,
                planOptions: NarrationPlan.Options = .init(), configuration: AudioNavigatorConfiguration = .init()) throws {
        if let protection = publication.protection {
            throw AudioNavigatorError(.protected, message: "\(publication.title) is protected by \(protection == .lcp ? "LCP" : "a DRM"), which raudio cannot decrypt")
        }
        let issues = AsyncStream.makeStream(of: NavigatorIssue.self)
        // Warnings of the documents planned later come through the same ordered stream as the
        // source's issues.
        let builder = NarrationPlanBuilder(publication: publication, options: planOptions, onWarning: { issues.continuation.yield($0) })
        let plan = builder.plan
        guard !plan.items.isEmpty else {
            throw AudioNavigatorError(.noAudio, message: "\(publication.title) has nothing to narrate (no media overlay, and no text to read aloud)")
        }
        self.builder = builder
        self.configuration = configuration
        let source = NarrationRenderSource(builder: builder, publication: publication, decoderFactory: components.decoderFactory,
                                           engine: engine, onIssue: { issues.continuation.yield($0) })
        let renderer = AudioRenderer(source: source, components: components,
                                     speed: SpeedProcessorLimits.clamp(configuration.speed), volume: configuration.volume)
        session = RenderSession(renderer: renderer, start: NarrationTarget(item: 0), stopAfter: configuration.stopAfter)
        events = session.events
        for warning in plan.warnings { session.continuation.yield(.warning(warning)) }
        let reports = renderer.reports
        // Source issues and render reports are merged into one ordered stream, so a fallback warning
        // comes before the positions of the item it concerns.
        let merged = AsyncStream.makeStream(of: Input.self)
        Task {
            for await issue in issues.stream { merged.continuation.yield(.issue(issue)) }
        }
        Task {
            for await report in reports { merged.continuation.yield(.report(report)) }
            issues.continuation.finish()
            merged.continuation.finish()
        }
        Task { [weak self] in
            for await input in merged.stream {
                guard let self else { return }
                await self.receive(input)
            }
        }
    }

    deinit {
        builder.cancel()
    }

    enum Input: Sendable {
        case report(RenderReport)
        case issue(NavigatorIssue)
    }

    // MARK: Reading

    /// The text being read (or where playback will start). Its `totalProgression` is by narration
    /// time, within the `par` too, when every item is a recorded clip (else by item).
    public var currentLocation: Locator {
        let plan = self.plan
        var locator = plan.items[heardItem].locator
        // A partial plan's timeline does not know the length of the whole narration yet.
        if plan.isComplete, let total = plan.timeline.totalProgression(item: heardItem, seconds: heardSeconds) {
            locator.locations.totalProgression = total
        }
        return locator
    }

    /// Where in the narration's audio (with the same `totalProgression` as `currentLocation`); nil
    /// for text-to-speech items.
    public var currentAudioLocation: Locator? {
        let plan = self.plan
        let item = plan.items[heardItem]
        if let clip = item.clip, missingAudio.contains(clip.href) { return nil }
        var locator = item.audioLocator(atSeconds: heardSeconds, clipEnd: nil)
        locator?.locations.totalProgression = currentLocation.locations.totalProgression
        return locator
    }

    /// Narration time being heard: the recorded clips before the current item plus the seconds into
    /// it (text-to-speech items take none); nil after a clip of unknown length.
    public var currentTime: Double? { plan.timeline.time(item: heardItem, seconds: heardSeconds) }

    public var state: PlaybackState { session.machine.state }

    /// The index in `plan.items` being heard.
    public var currentItem: Int { heardItem }

    // MARK: Commands

    public func play() { handle(.play) }
    public func pause() { handle(.pause) }
    public func playPause() { handle(.toggle) }
    public func stop() { handle(.stop) }

    /// Moves to `seconds` of narration time (`NarrationTimeline`): the recorded `par` whose clip covers
    /// it, at that frame of its clip; clamped to the narration. Playing or paused stays so. False (and
    /// nothing done) when the narration has no recorded time (all text-to-speech). While the plan is
    /// being built, waits (suspended) until it reaches that time.
    @discardableResult
    public func seek(to seconds: Double) async -> Bool {
        let plan = await builder.plan { $0.timeline.placesFinally(seconds) }
        guard let position = plan.timeline.position(atTime: seconds) else { return false }
        handle(.seek(NarrationTarget(item: position.item, seconds: position.seconds)))
        return true
    }

    /// Moves by `seconds` of narration time from the position heard, across `par`s and documents;
    /// clamped. From a text-to-speech item, counts from the start of the next recorded clip. After a
    /// clip of unknown length, stays within the current item. False when there is no recorded time.
    @discardableResult
    public func seek(by seconds: Double) async -> Bool {
        let plan = await builder.plan { $0.timeline.hasRecordedTime }
        guard plan.timeline.hasRecordedTime else { return false }
        // The heard item is planned, so its start time is final.
        if let now = plan.timeline.time(item: heardItem, seconds: heardSeconds) { return await seek(to: now + seconds) }
        var target = max(heardSeconds + seconds, 0)
        if let duration = plan.timeline.durations[heardItem] { target = min(target, duration) }
        handle(.seek(NarrationTarget(item: heardItem, seconds: target)))
        return true
    }

    /// The next item (`par`); nothing at the last one. Waits for the next item's document to be
    /// planned when it is not yet.
    public func goForward() async {
        let wanted = heardItem + 1
        let plan = await builder.plan { $0.items.count > wanted }
        guard heardItem + 1 < plan.items.count else { return }
        handle(.seek(NarrationTarget(item: heardItem + 1)))
    }

    /// The start of the previous item (the first one's start at the first).
    public func goBackward() {
        handle(.seek(NarrationTarget(item: max(heardItem - 1, 0))))
    }

    /// Leaves the table, list, note or other escapable structure being read; false when the current
    /// item is in none.
    @discardableResult
    public func escape() async -> Bool {
        let from = heardItem
        guard self.plan.indexAfterEscaping(from: from) != nil else { return false }
        // The structure may go on in documents not planned yet.
        let plan = await builder.plan { plan in (plan.indexAfterEscaping(from: from) ?? 0) < plan.items.count }
        guard let next = plan.indexAfterEscaping(from: from) else { return false }
        // Escaping the last structure of the book ends the narration.
        if next >= plan.items.count { handle(.stop) } else { handle(.seek(NarrationTarget(item: next))) }
        return true
    }

    /// Goes to the item covering `locator` (a text locator with a fragment, cssSelector or
    /// progression, or an audio locator with `t=`). Throws for an href the narration does not cover.
    /// While the plan is being built, waits (suspended) until it covers the locator, or is complete.
    public func go(to locator: Locator) async throws(AudioNavigatorError) {
        // Items are only appended and a document's all at once, so the first item found in a
        // partial plan is the one the whole plan would give.
        let plan = await builder.plan { $0.itemIndex(for: locator) != nil }
        guard let index = plan.itemIndex(for: locator) else {
            throw AudioNavigatorError(.unknownHref, message: "\(locator.href) is not narrated in this publication")
        }
        var seconds = 0.0
        if let time = locator.locations.time?.begin, let clip = plan.items[index].clip, NarrationPlan.split(locator.href).path == clip.href {
            seconds = max(time - clip.begin, 0)
        }
        handle(.seek(NarrationTarget(item: index, seconds: seconds)))
    }

    public func setSpeed(_ speed: Double) { session.renderer.setSpeed(SpeedProcessorLimits.clamp(speed)) }
    public func setVolume(_ volume: Double) { session.renderer.setVolume(VolumeLimiter.clamp(volume)) }

    /// Stops the render thread and releases the output (a WAV file is complete when this returns).
    public func close() async {
        builder.cancel()
        await session.close()
    }
}
