// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Plays a Readium audiobook: the tracks of its reading order, gaplessly, with locators for every
/// position, driven by the shared `PlaybackStateMachine`.
///
/// An actor and a thin front: commands become state-machine events, whose actions are performed by
/// commanding an `AudioRenderer` (its own thread owns decoders and the sink); the renderer's reports
/// come back through the actor in order and become `events`. Durations missing from the manifest are
/// probed on a background thread at init, so the first buffer is never delayed by them.
public actor AudioNavigator {
    /// What happens, in order. Finishes when `close()` returns.
    public nonisolated let events: AsyncStream<AudioNavigatorEvent>

    let publication: Publication
    let components: AudioComponents
    var configuration: AudioNavigatorConfiguration
    var timeline: PlaybackTimeline
    /// The state machine, the renderer and the common report handling (AudioNavigator+Reports).
    let session: RenderSession<AudioTarget, AudioNavigatorEvent>

    /// The position heard (or loaded), in track and seconds.
    var heardTrack = 0
    var heardSeconds = 0.0
    var lastTrackAnnounced: Int?
    var lastPositionEvent: (track: Int, seconds: Double)?
    var openedTracks = Set<Int>()
    var failedTracks = Set<Int>()
    /// The last track skipped since a track last started: the end is not heard when it is the last one.
    var lastSkipped: RenderIssue?
    /// Whether any audio was heard in this session (a position past a track's first frame).
    var hasHeardAudio = false

    /// Throws `.protected` for LCP/DRM publications, `.noAudio` when the reading order has no audio.
    /// Starts the render thread (which makes the sink) and probes missing durations in the background.
    public init(publication: Publication, components: AudioComponents, configuration: AudioNavigatorConfiguration = .init()) throws {
        if let protection = publication.protection {
            throw AudioNavigatorError(.protected, message: "\(publication.title) is protected by \(protection == .lcp ? "LCP" : "a DRM"), which raudio cannot decrypt")
        }
        let readingOrder = publication.readingOrder
        guard !readingOrder.isEmpty, readingOrder.contains(where: { $0.mediaType?.isAudio ?? true }) else {
            throw AudioNavigatorError(.noAudio, message: "\(publication.title) has no audio in its reading order")
        }
        var configuration = configuration
        configuration.speed = SpeedProcessorLimits.clamp(configuration.speed)
        configuration.volume = VolumeLimiter.clamp(configuration.volume)
        self.publication = publication
        self.components = components
        self.configuration = configuration
        timeline = PlaybackTimeline(readingOrder: readingOrder, tableOfContents: publication.tableOfContents)
        let renderer = AudioRenderer(
            source: PublicationRenderSource(publication: publication, decoderFactory: components.decoderFactory),
            components: components, speed: configuration.speed, volume: configuration.volume,
            positionReportInterval: min(configuration.positionInterval / 2, 0.25))
        session = RenderSession(renderer: renderer, start: AudioTarget(track: 0, seconds: 0), stopAfter: configuration.stopAfter)
        events = session.events

        receiveReports(from: renderer.reports)
        startProbing()
    }

    // MARK: Reading

    /// The position being heard (or where playback will start).
    public var currentLocation: Locator {
        timeline.locator(track: heardTrack, seconds: heardSeconds)
    }

    public var state: PlaybackState { session.machine.state }

    /// The publication's length in seconds, once every track's duration is known.
    public var totalDuration: Double? { timeline.totalDuration }

    /// The timeline (durations known so far, titles).
    public var playbackTimeline: PlaybackTimeline { timeline }

    // MARK: Commands

    public func play() { handle(.play) }
    public func pause() { handle(.pause) }
    public func playPause() { handle(.toggle) }
    public func stop() { handle(.stop) }

    /// Moves to `seconds` of publication time, crossing tracks; clamped to the publication. Always true
    /// (an audiobook has a timeline; the `Navigator` protocol's answer).
    @discardableResult
    public func seek(to seconds: Double) -> Bool {
        let position = timeline.position(atTime: seconds)
        move(to: AudioTarget(track: position.track, seconds: position.seconds))
        return true
    }

    /// Moves by `seconds` from the position heard, crossing track boundaries; clamped. Always true.
    @discardableResult
    public func seek(by seconds: Double) -> Bool {
        if let now = timeline.time(track: heardTrack, seconds: heardSeconds) {
            return seek(to: now + seconds)
        }
        // Durations before this track are unknown: stay within the track.
        var target = max(heardSeconds + seconds, 0)
        if let duration = timeline.duration(ofTrack: heardTrack) { target = min(target, duration) }
        move(to: AudioTarget(track: heardTrack, seconds: target))
        return true
    }

    /// The start of the next track; nothing at the last one.
    public func goForward() {
        guard heardTrack + 1 < timeline.count else { return }
        move(to: AudioTarget(track: heardTrack + 1, seconds: 0))
    }

    /// The start of the previous track (the first track's start at the first one).
    public func goBackward() {
        move(to: AudioTarget(track: max(heardTrack - 1, 0), seconds: 0))
    }

    public func skipForward() { seek(by: configuration.skipForwardInterval) }
    public func skipBackward() { seek(by: -configuration.skipBackwardInterval) }

    /// Goes to `locator`: its `t=` begin and end (a clip that then stops), else `progression`, else
    /// `totalProgression`. Keeps playing if playing. Throws for an href not in the reading order.
    public func go(to locator: Locator) throws(AudioNavigatorError) {
        var target = try timeline.target(for: locator)
        if let duration = timeline.duration(ofTrack: target.track) {
            if target.seconds > duration { target.seconds = duration }
            if let end = target.clipEnd, end > duration {
                target.clipEnd = nil
                emit(.warning(NavigatorIssue(
                    code: .clipClamped,
                    message: "\(locator.href): the clip ends at \(MediaFragment.format(end)) s, after the end of the track (\(MediaFragment.format(duration)) s); playing to the end of the track",
                    href: locator.href, fatal: false, locator: locator)))
            }
        }
        move(to: target)
    }

    /// Goes to a table-of-contents link such as `track.mp3#t=30`.
    public func go(to link: Link) throws(AudioNavigatorError) {
        move(to: try timeline.target(for: link))
    }

    /// Changes the speed (clamped to 0.5...3.0, pitch preserved) while playing.
    public func setSpeed(_ speed: Double) {
        configuration.speed = SpeedProcessorLimits.clamp(speed)
        session.renderer.setSpeed(configuration.speed)
    }

    /// Changes the volume (clamped to 0...2; above 1 a limiter keeps peaks from clipping) while playing.
    public func setVolume(_ volume: Double) {
        configuration.volume = VolumeLimiter.clamp(volume)
        session.renderer.setVolume(configuration.volume)
    }

    /// Stops the render thread and releases the output (a WAV file is complete when this returns).
    /// Idempotent. Emits nothing more after it returns.
    public func close() async {
        await session.close()
    }

    /// Seeks to `target`, which is from now on the position reported (the `loading` state that follows
    /// says where playback goes, not where it was: a resumed book never announces its start first).
    private func move(to target: AudioTarget) {
        heardTrack = target.track
        heardSeconds = target.seconds
        handle(.seek(target))
    }
}
