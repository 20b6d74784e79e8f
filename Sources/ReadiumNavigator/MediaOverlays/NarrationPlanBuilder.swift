// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Builds a `NarrationPlan` progressively, so that narration starts without waiting for the text of
/// every document read with text-to-speech (extracting it is the slow part: about a second for a
/// long novel; the SMIL files take milliseconds).
///
/// `init` builds, on the calling thread, the documents in reading order up to the first one that
/// gives an item plus the next one, and on while the next document has a media overlay (cheap); the
/// rest is appended, document by document in reading order, by a `Thread` of its own. Items are
/// only ever appended, so an item's index never changes and equals its index in the whole plan.
///
/// Thread-safe: `plan` is a snapshot (maybe partial, `isComplete` false: its timeline covers the
/// items so far, and items have no `totalProgression` yet); `waitForItem` blocks (render thread
/// only, never the cooperative pool); `complete()` and `plan(until:)` suspend until the plan is
/// built far enough (for the navigator actor). `cancel` stops
/// the thread after the document it is reading.
public final class NarrationPlanBuilder: @unchecked Sendable {
    /// Guards `state`; signalled at every appended document and at the end.
    private let condition = NSCondition()
    private var state: State
    /// How many reading-order documents `init` planned (all of them when no thread was needed).
    public let documentsPlannedAtInit: Int

    private struct State {
        var plan: NarrationPlan
        var cancelled = false
        var waiters: [Waiter] = []
    }

    private struct Waiter {
        var isSatisfied: @Sendable (NarrationPlan) -> Bool
        var continuation: CheckedContinuation<NarrationPlan, Never>
    }

    /// Plans the first documents on the calling thread (a few milliseconds: the SMIL files up to the
    /// first document read with text-to-speech past the second document that gives items) and starts
    /// the thread for the rest, which keeps the builder alive until it ends: call `cancel()` when the
    /// plan is no longer wanted. `onWarning` receives the warnings found by the background thread
    /// (called on that thread, outside the lock); those of the documents built in `init` are in
    /// `plan.warnings`.
    public init(publication: Publication, options: NarrationPlan.Options, onWarning: @escaping @Sendable (NavigatorIssue) -> Void) {
        var plan = NarrationPlan(empty: publication)
        let count = publication.readingOrder.count
        var next = 0
        var documentsAfterFirstItem = 0
        while next < count {
            if documentsAfterFirstItem >= 2, NarrationPlan.needsTextExtraction(at: next, of: publication, options: options) { break }
            plan.appendDocument(at: next, of: publication, options: options)
            if !plan.items.isEmpty { documentsAfterFirstItem += 1 }
            next += 1
        }
        if next == count { plan.finish(publication: publication, options: options) } else { plan.updatePartialTimeline() }
        state = State(plan: plan)
        documentsPlannedAtInit = next
        guard next < count else { return }
        let first = next
        BlockingWork.startThread(named: "raudio-narration-plan") { [self] in
            buildRest(from: first, publication: publication, options: options, onWarning: onWarning)
        }
    }

    /// A builder holding `plan`, already built (no thread).
    init(built plan: NarrationPlan) {
        state = State(plan: plan)
        documentsPlannedAtInit = plan.items.last.map { $0.readingOrderIndex + 1 } ?? 0
    }

    /// The plan as built so far.
    public var plan: NarrationPlan {
        condition.lock()
        defer { condition.unlock() }
        return state.plan
    }

    /// Blocks until item `index` is built or the plan is complete (or cancelled), and returns the
    /// plan then. Render thread only.
    public func waitForItem(_ index: Int) -> NarrationPlan {
        condition.lock()
        defer { condition.unlock() }
        while index >= state.plan.items.count, !state.plan.isComplete, !state.cancelled {
            condition.wait()
        }
        return state.plan
    }

    /// The whole plan, once built (at once when it is; the partial plan when cancelled).
    public func complete() async -> NarrationPlan {
        await plan { $0.isComplete }
    }

    /// The plan as soon as `isSatisfied` holds for it (checked now and at each document planned),
    /// or once it is complete or cancelled. Suspends without blocking a thread.
    public func plan(until isSatisfied: @escaping @Sendable (NarrationPlan) -> Bool) async -> NarrationPlan {
        await withCheckedContinuation { continuation in
            condition.lock()
            if state.plan.isComplete || state.cancelled || isSatisfied(state.plan) {
                let plan = state.plan
                condition.unlock()
                continuation.resume(returning: plan)
            } else {
                state.waiters.append(Waiter(isSatisfied: isSatisfied, continuation: continuation))
                condition.unlock()
            }
        }
    }

    /// Stops the background thread after its current document; waiters get the partial plan.
    public func cancel() {
        condition.lock()
        state.cancelled = true
        let waiters = state.waiters
        state.waiters = []
        let plan = state.plan
        condition.broadcast()
        condition.unlock()
        for waiter in waiters { waiter.continuation.resume(returning: plan) }
    }

    /// The background thread's work: each remaining document planned apart, then appended to the
    /// shared plan in place (no copy of the items planned before).
    private func buildRest(from first: Int, publication: Publication, options: NarrationPlan.Options,
                           onWarning: @Sendable (NavigatorIssue) -> Void) {
        let last = publication.readingOrder.count - 1
        for index in first...last {
            if isCancelled { return }
            var part = NarrationPlan(empty: publication)
            part.appendDocument(at: index, of: publication, options: options)
            for warning in part.warnings { onWarning(warning) }
            var finishWarnings: [NavigatorIssue] = []
            publish { plan in
                plan.append(part)
                guard index == last else { return plan.updatePartialTimeline() }
                let warningCount = plan.warnings.count
                plan.finish(publication: publication, options: options)
                finishWarnings = Array(plan.warnings[warningCount...])
            }
            for warning in finishWarnings { onWarning(warning) }
        }
    }

    private var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.cancelled
    }

    /// Changes the shared plan with `change` (under the lock: keep it short) and wakes the waiters
    /// it satisfies.
    private func publish(_ change: (inout NarrationPlan) -> Void) {
        condition.lock()
        change(&state.plan)
        let plan = state.plan
        var ready: [Waiter] = []
        state.waiters.removeAll { waiter in
            guard plan.isComplete || waiter.isSatisfied(plan) else { return false }
            ready.append(waiter)
            return true
        }
        condition.broadcast()
        condition.unlock()
        for waiter in ready { waiter.continuation.resume(returning: plan) }
    }
}
