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
    private let alertRecorder = Mutex<AlertRecorder?>(nil)

    /// Writes alerts (`FeedMessage.alert`) durably in the transaction that publishes them, then hears of the commit.
    struct AlertRecorder: Sendable {
        let record: @Sendable ([(user: UUID, content: NotificationContent)], any SQLDatabase) async throws -> Void
        let committed: @Sendable () -> Void
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

    /// The one place alerts go (the notifications domain): a domain publishes `.alert`s, it never calls push.
    func recordAlerts(_ recorder: AlertRecorder) {
        alertRecorder.withLock { $0 = recorder }
    }

    /// Runs `body` in a transaction whose messages go out with its commit: none if it rolls back. Alerts are written
    /// in the same transaction (so one is never lost or sent for a change that rolled back) and never reach the feed.
    func transaction<T: Sendable>(publishing body: @escaping @Sendable (any SQLDatabase) async throws -> (T, [FeedMessage])) async throws -> T {
        let (feed, recorder) = (feed, alertRecorder.withLock { $0 })
        let (result, messages, alerted) = try await database.transaction { db in
            let (result, published) = try await body(db)
            let alerts = published.compactMap { message -> (user: UUID, content: NotificationContent)? in
                if case .alert(let user, let content) = message { (user, content) } else { nil }
            }
            let messages = alerts.isEmpty ? published : published.filter { if case .alert = $0 { false } else { true } }
            if !alerts.isEmpty, let recorder { try await recorder.record(alerts, db) }
            if !messages.isEmpty { try await feed.publish(messages, on: db) }
            return (result, messages, !alerts.isEmpty)
        }
        if alerted { recorder?.committed() }
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

    /// Whether an event for `audience` could reach anyone (in some process); when not, it need not even be built.
    func reaches(_ audience: [UUID]) -> Bool {
        feed.reaches(audience)
    }
}
