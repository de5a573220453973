import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaServer
import SQLKit
import Synchronization

/// `plaza bench push`: Web Push messages per second that one Plaza process encrypts (RFC 8291), signs for (VAPID)
/// and sends to a push service on loopback, three ways: the encryption alone; the sender posting each message; and
/// the whole outbox (alerts queued in the database, fanned out per device, claimed, sent, recorded). The peer in the
/// same run: the same number of plain POSTs of the same size through the same HTTP client, the floor any push costs.
public struct PushBench: Sendable {
    var configuration: PlazaConfiguration
    let messages: Int
    let concurrency: Int

    public init(configuration: PlazaConfiguration, messages: Int, concurrency: Int) {
        self.configuration = configuration
        self.messages = max(1, messages)
        self.concurrency = max(1, concurrency)
    }

    public func run() async throws -> String {
        let receiver = try await BenchPushReceiver.start()
        defer { Task { await receiver.stop() } }
        var configuration = configuration
        // The receiver stands in for a push service: let through by its literal origin, as an operator would.
        configuration.push.hosts.append(receiver.origin)
        return try await BenchServer.run(configuration) { services, _, _ in
            let webPush = WebPush(vapid: P256.Signing.PrivateKey(), subject: "mailto:bench@plaza.localhost")
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            let payload = PushPayload(
                id: UUID(),
                kind: .moneyRequests,
                title: "Bruno's Bakery asks you to pay $4.20.",
                body: "Espresso and a pretzel",
                link: "/wallet/charges",
                sentAt: Date()
            )
            let plaintext = try PlazaJSON.encoder().encode(payload)
            let body = try WebPush.encrypt(plaintext, p256dh: browser.publicKey.x963Representation, auth: auth)

            let encrypt = try Self.rate(messages) {
                _ = try WebPush.encrypt(plaintext, p256dh: browser.publicKey.x963Representation, auth: auth)
            }
            let device = DeviceRecord(
                id: UUID(),
                userID: UUID(),
                platform: .webpush,
                name: "bench",
                address: "\(receiver.origin)/push/bench",
                p256dh: browser.publicKey.x963Representation.base64URLEncodedString(),
                auth: auth.base64URLEncodedString(),
                topic: nil,
                createdAt: Date(),
                lastDeliveredAt: nil
            )
            let sender = WebPushSender(
                webPush: webPush,
                call: OutboundCall(addresses: OutboundGuard(pushServicesAnd: [receiver.origin]))
            )
            let sent = try await concurrently(messages) {
                guard await sender.send(PushMessage(payload), to: device) == .delivered else {
                    throw BenchFailure.refused
                }
            }
            let plain = try await concurrently(messages) { try await receiver.post(body: body) }
            let outbox = try await throughOutbox(services, receiver: receiver, browser: browser, auth: auth)
            return """
                plaza bench push: \(messages) messages of \(body.count) bytes, \(concurrency) in flight, \(services.database.engine.rawValue), \
                \(ProcessInfo.processInfo.activeProcessorCount) cores
                | what | messages per second |
                |---|---:|
                | encrypt only (RFC 8291 aes128gcm, one ECDH per message) | \(Self.format(encrypt)) |
                | send: encrypt, VAPID, POST to the receiver (Plaza) | \(Self.format(sent)) |
                | plain POST of the same size, same client (peer) | \(Self.format(plain)) |
                | the outbox: queued alerts → fan-out → send → recorded (Plaza) | \(Self.format(outbox)) |
                """
        }
    }

    enum BenchFailure: Error {
        case refused
        case incomplete(Int)
    }

    static func format(_ rate: Double) -> String { String(format: "%.0f", rate) }

    /// Calls per second of `body` on this thread.
    static func rate(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<count { try body() }
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Calls per second of `body`, `concurrency` at a time.
    private func concurrently(_ count: Int, _ body: @escaping @Sendable () async throws -> Void) async throws -> Double
    {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                if index >= concurrency { try await group.next() }
                group.addTask { try await body() }
            }
            try await group.waitForAll()
        }
        return Double(count) / Self.seconds(ContinuousClock.now - start)
    }

    /// `messages` alerts for as many people (a device each), queued as a domain's commits queue them, then timed
    /// until the receiver has them all.
    private func throughOutbox(
        _ services: PlazaServices,
        receiver: BenchPushReceiver,
        browser: P256.KeyAgreement.PrivateKey,
        auth: Data
    ) async throws -> Double {
        let store = services.notifications.store
        let now = Date()
        // A person per hundred alerts, each with a browser.
        let users = try await services.database.transaction { db in
            var users: [UUID] = []
            for index in 0..<max(1, messages / 100) {
                let id = UUID()
                try await AccountStore().insert(
                    UserRecord(
                        id: id,
                        email: "push\(index)@bench.invalid",
                        username: "push\(index)",
                        displayName: "Push \(index)",
                        passwordHash: "",
                        role: .customer,
                        emailVerified: true,
                        now: now
                    ),
                    on: db
                )
                _ = try await store.saveDevice(
                    DeviceRecord(
                        id: UUID(),
                        userID: id,
                        platform: .webpush,
                        name: "bench",
                        address: "\(receiver.origin)/push/outbox-\(index)",
                        p256dh: browser.publicKey.x963Representation.base64URLEncodedString(),
                        auth: auth.base64URLEncodedString(),
                        topic: nil,
                        createdAt: now,
                        lastDeliveredAt: nil
                    ),
                    on: db
                )
                users.append(id)
            }
            return users
        }
        let before = receiver.count
        let start = ContinuousClock.now
        let content = NotificationContent(
            kind: .moneyReceived,
            title: "Carla K. sent you $7.25.",
            body: "Lunch",
            link: "/wallet"
        )
        for batch in stride(from: 0, to: messages, by: 100) {
            let alerts = (batch..<min(messages, batch + 100)).map {
                (id: UUID(), user: users[$0 % users.count], content: content)
            }
            try await services.database.transaction { db in try await store.enqueue(alerts, now: Date(), on: db) }
            services.notificationDelivery.nudge()
        }
        let deadline = Date().addingTimeInterval(300)
        while receiver.count - before < messages, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        guard receiver.count - before >= messages else { throw BenchFailure.incomplete(receiver.count - before) }
        return Double(messages) / Self.seconds(ContinuousClock.now - start)
    }
}

/// A push service on loopback that takes every message (201) and counts it.
final class BenchPushReceiver: Sendable {
    let port: Int
    private let task: Task<Void, any Error>
    private let counter: BenchCounter
    var origin: String { "http://127.0.0.1:\(port)" }
    var count: Int { counter.value }

    private init(port: Int, task: Task<Void, any Error>, counter: BenchCounter) {
        self.port = port
        self.task = task
        self.counter = counter
    }

    static func start() async throws -> BenchPushReceiver {
        let counter = BenchCounter()
        let router = Router()
        router.post("push/:id") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 16)
            counter.add()
            return Response(status: .created)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "bench-push-receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
            logger: logger
        )
        let task = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw PushBench.BenchFailure.incomplete(0) }
        return BenchPushReceiver(port: port, task: task, counter: counter)
    }

    /// A plain POST of `body` (the peer row).
    func post(body: Data) async throws {
        var request = HTTPClientRequest(url: "\(origin)/push/plain")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 16)
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// How many messages the receiver took.
final class BenchCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}
