import Foundation
import PlazaCore
import SQLKit
import Synchronization

/// The platform's event bus. A domain publishes what changed with its transaction's commit
/// (`transaction(publishing:)`); every process hears it once (through PostgreSQL on that engine), and the bus hands
/// live events to the listeners connected here (`hub`, behind `GET /v1/events`) and everything else to the domains
/// that subscribed (Places keeps its live index and catalog so). Later domains publish and subscribe here too.
final class EventBus: Sendable {
    let database: PlazaDatabase
    let feed: any LiveFeed
    /// The `GET /v1/events` sockets of this process, by user.
    let hub = EventHub()
    private let subscribers = Mutex<[Subscriber]>([])
    private let recorders = Mutex<[Recorder]>([])

    /// A domain's part of every publishing transaction: it writes what it keeps of the messages (alerts into the
    /// notification outbox, review requests into the queue, decisions onto their subject) in that transaction, and
    /// returns whether it wrote anything; then `committed` runs once the transaction committed.
    /// A recorder may also answer messages that follow from what it wrote (an offer delivered on a position: its alert
    /// and live event); those go through the recorders in turn and out with the transaction's own.
    struct Recorder: Sendable {
        let react: @Sendable ([FeedMessage], any SQLDatabase) async throws -> (wrote: Bool, follow: [FeedMessage])
        let committed: @Sendable () -> Void

        init(
            record: @escaping @Sendable ([FeedMessage], any SQLDatabase) async throws -> Bool,
            committed: @escaping @Sendable () -> Void = {}
        ) {
            self.react = { messages, db in (try await record(messages, db), []) }
            self.committed = committed
        }

        init(
            reacting:
                @escaping @Sendable ([FeedMessage], any SQLDatabase) async throws -> (
                    wrote: Bool, follow: [FeedMessage]
                ),
            committed: @escaping @Sendable () -> Void = {}
        ) {
            self.react = reacting
            self.committed = committed
        }
    }

    private struct Subscriber: Sendable {
        let receive: @Sendable (FeedMessage) -> Void
        let resync: @Sendable () -> Void
    }

    init(database: PlazaDatabase, feed: any LiveFeed) {
        self.database = database
        self.feed = feed
        // Weak: the feed outlives nothing here, but it holds these closures.
        feed.receive({ [weak self] message in self?.deliver(message) }, resync: { [weak self] in self?.resync() })
        let hub = hub
        feed.receiver.onlyEvents { hub.listens(toAny: $0) }
    }

    private func deliver(_ message: FeedMessage) {
        if case .event(let audience, let event) = message {
            hub.deliver(event, to: audience)
        } else {
            for subscriber in subscribers.withLock({ $0 }) { subscriber.receive(message) }
        }
    }

    private func resync() {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.resync() }
    }

    /// Hears every message but live events (those go to `hub`), from this process and the others; `resync` runs when
    /// messages may have been lost (the PostgreSQL listener reconnected), so that state built from them is rebuilt.
    func subscribe(_ receive: @escaping @Sendable (FeedMessage) -> Void, resync: @escaping @Sendable () -> Void) {
        subscribers.withLock { $0.append(Subscriber(receive: receive, resync: resync)) }
    }

    /// Adds a domain's recorder: a domain publishes `.alert`s and `.review`s, it never calls push or the admin console.
    func record(_ recorder: Recorder) {
        recorders.withLock { $0.append(recorder) }
    }

    /// Runs `body` in a transaction whose messages go out with its commit: none if it rolls back. The recorders write
    /// their part in the same transaction (so an alert or a review is never lost, nor filed for a change that rolled
    /// back); alerts and review requests never reach the feed.
    func transaction<T: Sendable>(
        publishing body: @escaping @Sendable (any SQLDatabase) async throws -> (T, [FeedMessage])
    ) async throws -> T {
        let (feed, recorders) = (feed, recorders.withLock { $0 })
        let (result, messages, wrote) = try await database.transaction { db in
            var (result, published) = try await body(db)
            var wrote: Set<Int> = []
            // What follows from a message is recorded too, however deep it goes: nothing is dropped. Follow-ons that
            // never end are a cycle between recorders, a programming error: the transaction fails, loudly.
            var pending = published
            var round = 0
            while !pending.isEmpty {
                round += 1
                guard round <= Self.followOnRounds else { throw FollowOnCycle(messages: pending) }
                var follow: [FeedMessage] = []
                for (index, recorder) in recorders.enumerated() {
                    let (didWrite, more) = try await recorder.react(pending, db)
                    if didWrite { wrote.insert(index) }
                    follow += more
                }
                published += follow
                pending = follow
            }
            let messages = published.filter { !$0.isRecordedOnly }
            if !messages.isEmpty { try await feed.publish(messages, on: db) }
            return (result, messages, wrote)
        }
        for index in wrote.sorted() { recorders[index].committed() }
        // This process's subscribers hear their messages at once (a repeat from the feed is harmless); live events go
        // only through the feed, so that every listener gets each one once.
        let local = messages.filter { if case .event = $0 { false } else { true } }
        if !local.isEmpty {
            let subscribers = subscribers.withLock { $0 }
            for message in local { for subscriber in subscribers { subscriber.receive(message) } }
        }
        feed.committed(messages.filter { if case .event = $0 { true } else { false } })
        return result
    }

    /// Rounds of follow-on messages past which recorders are answering each other in a cycle (today's deepest chain
    /// is two: a position delivers an offer, whose alert is recorded).
    static let followOnRounds = 32

    /// Recorders kept answering each other's messages: the publishing transaction fails rather than loop or drop.
    struct FollowOnCycle: Error, CustomStringConvertible {
        let messages: [FeedMessage]
        var description: String {
            "event bus: recorders still answered after \(EventBus.followOnRounds) rounds (a cycle), last: \(messages.prefix(3))"
        }
    }

    /// Whether an event for `audience` could reach anyone (in some process); when not, it need not even be built.
    func reaches(_ audience: [UUID]) -> Bool {
        feed.reaches(audience)
    }
}
