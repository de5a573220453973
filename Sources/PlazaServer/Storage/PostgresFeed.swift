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
extension PlazaDatabase {
    /// The feed of this engine: PostgreSQL's `LISTEN/NOTIFY` between processes (on the URL's `search_path` schema's
    /// channel), or the in-process one for SQLite's single process.
    func makeFeed(storage: PlazaConfiguration.Storage, logger: Logger) -> any LiveFeed {
        guard case .postgres(let url) = storage else { return LocalFeed() }
        let schema = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first {
            $0.name == "search_path"
        }?.value
        return PostgresFeed(database: self, schema: schema, logger: logger)
    }
}

struct PostgresFeed: LiveFeed {
    /// `plaza_feed`, or `plaza_feed_<schema>` when the database URL picks a schema: notifications are per
    /// database, so Plazas in different schemas of one database (the tests do this) must not hear each other.
    let channel: String
    var notificationChannel: String? { channel }
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
        let notifications = try Self.pack(messages.flatMap(Self.split).map(Self.payload)).map {
            payload -> SQLQueryString in
            "pg_notify(\(bind: channel), \(bind: payload))"
        }
        guard !notifications.isEmpty else { return }
        try await db.raw("SELECT \(notifications.joined(separator: ", "))").run()
    }

    func committed(_ messages: [FeedMessage]) {}

    /// Another process may have the listener.
    func reaches(_ audience: [UUID]) -> Bool { true }

    func receive(_ handler: @escaping @Sendable (FeedMessage) -> Void, resync: @escaping @Sendable () -> Void) {
        receiver.install(handler, resync: resync)
    }

    var service: (any Service)? {
        (database.sql as? PostgresClientSQLDatabase).map {
            Listener(client: $0.client, channel: channel, receiver: receiver, logger: logger)
        }
    }

    /// An event is `E` and its audience's ids, a line break, then the event's JSON: a listener reads the audience
    /// first and skips the JSON when nobody in its process listens. Other messages are their JSON (one line: JSON
    /// escapes its line breaks).
    static func payload(_ message: FeedMessage) throws -> String {
        guard case .event(let audience, let event) = message else {
            return String(decoding: try PlazaJSON.encoder().encode(message), as: UTF8.self)
        }
        return "E" + audience.map(\.text).joined(separator: ",") + "\n"
            + String(decoding: try PlazaJSON.encoder().encode(event), as: UTF8.self)
    }

    /// The payload of an event whose `data` is JSON already (a transfer's stored response), spliced in rather than
    /// decoded into a `JSONValue` and encoded again.
    static func eventPayload(audience: [UUID], type: String, occurredAt: Date, data json: String) throws -> String {
        let empty = PlazaEvent(id: .random(), type: type, occurredAt: occurredAt, data: .null)
        let shell = String(decoding: try PlazaJSON.encoder().encode(empty), as: UTF8.self)
        // Sorted keys: `data` comes first.
        let head = #"{"data":null"#
        guard shell.hasPrefix(head) else {
            let data = try PlazaJSON.decoder().decode(JSONValue.self, from: Data(json.utf8))
            return try payload(
                .event(
                    audience: audience,
                    event: PlazaEvent(id: empty.id, type: type, occurredAt: occurredAt, data: data)
                )
            )
        }
        return "E" + audience.map(\.text).joined(separator: ",") + "\n" + #"{"data":"# + json
            + shell.dropFirst(head.count)
    }

    /// Payloads joined by line breaks, as many to a notification as fit under the limit: a batch of transfers sends
    /// one notification, not one per event (each costs PostgreSQL a queue entry and every listener a wake-up).
    static func pack(_ payloads: [String]) -> [String] {
        var packed: [String] = []
        var current = ""
        for payload in payloads {
            if !current.isEmpty, current.utf8.count + 1 + payload.utf8.count > maximumPayload {
                packed.append(current)
                current = ""
            }
            current += current.isEmpty ? payload : "\n" + payload
        }
        if !current.isEmpty { packed.append(current) }
        return packed
    }

    enum Received {
        case message(FeedMessage)
        /// An event for nobody listening here.
        case skipped
        case unreadable
    }

    /// What a notification's `payload` carries, in order; events that `wanted` declines are not decoded.
    static func received(_ payload: String, wanted: ([UUID]) -> Bool) -> [Received] {
        var lines = payload.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var received: [Received] = []
        while let line = lines.popFirst() {
            guard line.hasPrefix("E") else {
                received.append(
                    (try? PlazaJSON.decoder().decode(FeedMessage.self, from: Data(line.utf8))).map { .message($0) }
                        ?? .unreadable
                )
                continue
            }
            guard let json = lines.popFirst() else {
                received.append(.unreadable)
                break
            }
            let ids = line.dropFirst().split(separator: ",").map { UUID(text: $0) }
            guard !ids.contains(nil) else {
                received.append(.unreadable)
                continue
            }
            let audience = ids.compactMap { $0 }
            guard wanted(audience) else {
                received.append(.skipped)
                continue
            }
            received.append(
                (try? PlazaJSON.decoder().decode(PlazaEvent.self, from: Data(json.utf8))).map {
                    .message(.event(audience: audience, event: $0))
                }
                    ?? .unreadable
            )
        }
        return received
    }

    /// An event for many listeners goes out in several notifications, each under the size limit.
    static func split(_ message: FeedMessage) -> [FeedMessage] {
        guard case .event(let audience, let event) = message, audience.count > 100 else { return [message] }
        return stride(from: 0, to: audience.count, by: 100).map {
            .event(audience: Array(audience[$0..<min($0 + 100, audience.count)]), event: event)
        }
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
                                receiver.listening(true)
                                receiver.resync()
                                try await withThrowingTaskGroup(of: Void.self) { group in
                                    // The pool's keep-alive skips leased connections: ping this one ourselves.
                                    group.addTask {
                                        while true {
                                            try await Task.sleep(for: .seconds(30))
                                            try await PostgresStatementGuard.run(on: connection) {
                                                _ = try await connection.query("SELECT 1", logger: logger).collect()
                                            }
                                        }
                                    }
                                    group.addTask {
                                        for try await notification in notifications {
                                            for received in PostgresFeed.received(
                                                notification.payload,
                                                wanted: receiver.wants
                                            ) {
                                                switch received {
                                                case .message(let message): receiver.deliver(message)
                                                case .skipped: continue
                                                case .unreadable: logger.warning("unreadable feed message")
                                                }
                                            }
                                        }
                                    }
                                    try await group.next()
                                    group.cancelAll()
                                }
                            }
                        }
                    } catch {
                        receiver.listening(false)
                        if Task.isCancelled { break }
                        logger.warning("feed connection lost; listening again", metadata: ["error": "\(error)"])
                    }
                    receiver.listening(false)
                    receiver.resync()
                    try await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}
