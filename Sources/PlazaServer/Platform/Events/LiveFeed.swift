import Foundation
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// Carries `FeedMessage`s to every Plaza process sharing the database, this one included.
///
/// Writers call `publish` inside the transaction that made the change and `committed` after it: on
/// PostgreSQL `publish` is a `NOTIFY`, delivered by the server at commit to every listening process (and
/// never for a rolled-back change); on SQLite, one process owns the file, so `committed` hands the
/// messages straight to this process's receiver.
protocol LiveFeed: Sendable {
    func publish(_ messages: [FeedMessage], on db: any SQLDatabase) async throws
    func committed(_ messages: [FeedMessage])
    /// Whether an event for `audience` could reach anyone (in some process); when not, it need not even be built.
    func reaches(_ audience: [UUID]) -> Bool
    /// Where this process's messages arrive.
    var receiver: FeedReceiver { get }
    /// Installs the receiver of every message, and the action to take when messages may have been lost.
    func receive(_ handler: @escaping @Sendable (FeedMessage) -> Void, resync: @escaping @Sendable () -> Void)
    /// Background work (PostgreSQL's listening connection); `nil` when there is none.
    var service: (any Service)? { get }
    /// The PostgreSQL channel a prepared statement may notify itself, with payloads from `PostgresFeed.eventPayload`
    /// and `pack` (the transfer batch does, to save a round trip); `nil` for the in-process feed.
    var notificationChannel: String? { get }
}

/// Holds the receiver of a feed.
final class FeedReceiver: Sendable {
    private let message = CallbackSlot<FeedMessage>()
    private let lost = CallbackSlot<Void>()
    private final class AudienceFilter: Sendable {
        let wants: @Sendable ([UUID]) -> Bool
        init(_ wants: @escaping @Sendable ([UUID]) -> Bool) { self.wants = wants }
    }
    private let filter = Mutex<AudienceFilter?>(nil)
    private let listeningNow = Atomic<Bool>(false)

    /// Whether the feed's listening connection is up (PostgreSQL; readiness reports it as `feed`).
    var isListening: Bool { listeningNow.load(ordering: .relaxed) }

    /// Told by the feed when its listening connection comes up or goes down.
    func listening(_ up: Bool) {
        listeningNow.store(up, ordering: .relaxed)
    }

    /// Events for audiences nobody here listens to need not be read at all (see `wants`).
    func onlyEvents(for wants: @escaping @Sendable ([UUID]) -> Bool) {
        let new = AudienceFilter(wants)
        filter.withLock { $0 = new }
    }

    /// Whether an event for `audience` would reach anyone in this process.
    func wants(_ audience: [UUID]) -> Bool {
        filter.withLock { $0 }?.wants(audience) ?? true
    }

    func install(_ handler: @escaping @Sendable (FeedMessage) -> Void, resync: @escaping @Sendable () -> Void) {
        message.set(handler)
        lost.set { _ in resync() }
    }

    func deliver(_ message: FeedMessage) {
        self.message(message)
    }

    func resync() {
        lost(())
    }
}

/// The feed of a single process (SQLite): messages go straight to this process once committed.
struct LocalFeed: LiveFeed {
    let receiver = FeedReceiver()
    var notificationChannel: String? { nil }

    func publish(_ messages: [FeedMessage], on db: any SQLDatabase) async throws {}

    func committed(_ messages: [FeedMessage]) {
        for message in messages { receiver.deliver(message) }
    }

    func receive(_ handler: @escaping @Sendable (FeedMessage) -> Void, resync: @escaping @Sendable () -> Void) {
        receiver.install(handler, resync: resync)
    }

    /// One process: only its own listeners count.
    func reaches(_ audience: [UUID]) -> Bool {
        receiver.wants(audience)
    }

    var service: (any Service)? { nil }
}
