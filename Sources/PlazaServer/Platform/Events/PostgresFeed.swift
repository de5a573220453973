import Foundation
import Logging
import PlazaCore
import PostgresNIO
import SQLKit
import ServiceLifecycle

/// The feed between Plaza processes sharing one PostgreSQL: `NOTIFY plaza_feed` inside the writing
/// transaction (PostgreSQL delivers it at commit, to every listening process, never for a rollback) and
/// one pooled connection per process that `LISTEN`s. After a lost connection the receiver is told to
/// resync (the live index reloads from the database), since notifications sent meanwhile are gone.
struct PostgresFeed: LiveFeed {
    /// `plaza_feed`, or `plaza_feed_<schema>` when the database URL picks a schema: notifications are per
    /// database, so Plazas in different schemas of one database (the tests do this) must not hear each other.
    let channel: String
    /// PostgreSQL refuses payloads of 8,000 bytes or more.
    static let maximumPayload = 7_900

    let database: PlazaDatabase
    let logger: Logger
    let receiver = FeedReceiver()

    init(database: PlazaDatabase, schema: String?, logger: Logger) {
        self.database = database
        self.logger = logger
        let suffix = (schema ?? "").lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" }
        channel = String((suffix.isEmpty ? "plaza_feed" : "plaza_feed_\(suffix)").prefix(63))
    }

    func publish(_ messages: [FeedMessage], on db: any SQLDatabase) async throws {
        // One statement for all of them (a batch of transfers has one event each).
        guard let notifications = try notifications(messages), !notifications.isEmpty else { return }
        try await db.raw("SELECT \(notifications.joined(separator: ", "))").run()
    }

    func notifications(_ messages: [FeedMessage]) throws -> [SQLQueryString]? {
        try messages.flatMap(Self.split).map { message -> SQLQueryString in "pg_notify(\(bind: channel), \(bind: try Self.payload(message)))" }
    }

    func committed(_ messages: [FeedMessage]) {}

    /// Another process may have the listener.
    func reaches(_ audience: [UUID]) -> Bool { true }

    func receive(_ handler: @escaping @Sendable (FeedMessage) -> Void, resync: @escaping @Sendable () -> Void) {
        receiver.install(handler, resync: resync)
    }

    var service: (any Service)? {
        (database.sql as? PostgresClientSQLDatabase).map { Listener(client: $0.client, channel: channel, receiver: receiver, logger: logger) }
    }

    /// An event is `E` and its audience's ids, a line break, then the event's JSON: a listener reads the audience
    /// first and skips the JSON when nobody in its process listens. Other messages are their JSON.
    static func payload(_ message: FeedMessage) throws -> String {
        guard case .event(let audience, let event) = message else { return String(decoding: try PlazaJSON.encoder().encode(message), as: UTF8.self) }
        return "E" + audience.map(\.uuidString).joined(separator: ",") + "\n" + String(decoding: try PlazaJSON.encoder().encode(event), as: UTF8.self)
    }

    enum Received {
        case message(FeedMessage)
        /// An event for nobody listening here.
        case skipped
        case unreadable
    }

    /// What a notification's `payload` carries; events that `wanted` declines are not decoded.
    static func received(_ payload: String, wanted: ([UUID]) -> Bool) -> Received {
        guard payload.hasPrefix("E"), let newline = payload.firstIndex(of: "\n") else {
            return (try? PlazaJSON.decoder().decode(FeedMessage.self, from: Data(payload.utf8))).map { .message($0) } ?? .unreadable
        }
        let ids = payload[payload.index(after: payload.startIndex)..<newline].split(separator: ",").map { UUID(uuidString: String($0)) }
        guard !ids.contains(nil) else { return .unreadable }
        let audience = ids.compactMap { $0 }
        guard wanted(audience) else { return .skipped }
        guard let event = try? PlazaJSON.decoder().decode(PlazaEvent.self, from: Data(payload[payload.index(after: newline)...].utf8)) else {
            return .unreadable
        }
        return .message(.event(audience: audience, event: event))
    }

    /// An event for many listeners goes out in several notifications, each under the size limit.
    static func split(_ message: FeedMessage) -> [FeedMessage] {
        guard case .event(let audience, let event) = message, audience.count > 100 else { return [message] }
        return stride(from: 0, to: audience.count, by: 100).map { .event(audience: Array(audience[$0..<min($0 + 100, audience.count)]), event: event) }
    }

    struct Listener: Service {
        let client: PostgresClient
        let channel: String
        let receiver: FeedReceiver
        let logger: Logger

        func run() async throws {
            try? await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    do {
                        try await client.withConnection { connection in
                            try await connection.listen(on: channel) { notifications in
                                // Anything sent before this connection listened is unknown: reload.
                                receiver.resync()
                                try await withThrowingTaskGroup(of: Void.self) { group in
                                    // The pool's keep-alive skips leased connections: ping this one ourselves.
                                    group.addTask {
                                        while true {
                                            try await Task.sleep(for: .seconds(30))
                                            _ = try await connection.query("SELECT 1", logger: logger).collect()
                                        }
                                    }
                                    group.addTask {
                                        for try await notification in notifications {
                                            switch PostgresFeed.received(notification.payload, wanted: receiver.wants) {
                                            case .message(let message): receiver.deliver(message)
                                            case .skipped: continue
                                            case .unreadable: logger.warning("unreadable feed message")
                                            }
                                        }
                                    }
                                    try await group.next()
                                    group.cancelAll()
                                }
                            }
                        }
                    } catch {
                        if Task.isCancelled { break }
                        logger.warning("feed connection lost; listening again", metadata: ["error": "\(error)"])
                    }
                    receiver.resync()
                    try await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}
