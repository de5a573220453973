import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Synchronization
import Testing
import WSClient

@Suite struct EventsTests {
    let shopPoint = Coordinate(latitude: 59.3293, longitude: 18.0686)

    /// Reads text messages until `count` events have arrived (after the `ready` message) or 5 seconds pass after
    /// `afterReady` finished (a loaded machine may take seconds to connect and act: that time is not the events'), and
    /// returns the events that arrived. A minute in all at most.
    static func collect(
        _ inbound: WebSocketInboundStream,
        count: Int,
        afterReady: @escaping @Sendable () async throws -> Void
    ) async throws -> [PlazaEvent] {
        let received = EventBox()
        let acted = Moment()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                guard case .text(let ready)? = try await messages.next(), ready.contains("ready") else { return }
                try await afterReady()
                acted.set(.now)
                while received.value.count < count, case .text(let text)? = try await messages.next() {
                    received.append(try PlazaJSON.decoder().decode(PlazaEvent.self, from: Data(text.utf8)))
                }
            }
            group.addTask {
                let started = ContinuousClock.now
                while started.duration(to: .now) < .seconds(60) {
                    if let at = acted.value, at.duration(to: .now) >= .seconds(5) { return }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            try await group.next()
            group.cancelAll()
        }
        return received.value
    }

    @Test(arguments: TestEngine.enabled)
    func staffSeeCustomersComeAndGoLive(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let places = PlacesDriver(client)
            let (owner, business, location) = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            let events = EventBox()
            _ = try await client.ws(
                "/v1/events",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(owner.accessToken)"])
            ) {
                inbound,
                _,
                _ in
                let received = try await Self.collect(inbound, count: 2) {
                    try await places.move(to: shopPoint, ago: 2, token: anna.accessToken)
                    try await places.move(to: shopPoint.offset(north: 400), ago: 1, token: anna.accessToken)
                }
                events.set(received)
            }
            let received = events.value
            #expect(received.map(\.type) == [PlazaEventType.presenceEntered, PlazaEventType.presenceExited])
            let change = try received.first?.payload(as: PresenceChange.self)
            #expect(
                change
                    == PresenceChange(
                        businessId: business.id,
                        locationId: location.id,
                        username: "anna",
                        displayName: "Anna"
                    )
            )
        }
    }

    @Test func theCustomerHearsOfTheShopTheyEnteredAfterSendingTheirToken() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let places = PlacesDriver(client)
            let (_, business, _) = try await places.shop(name: "Bakery", category: .grocery, at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            let events = EventBox()
            _ = try await client.ws("/v1/events") { inbound, outbound, _ in
                try await outbound.write(.text(anna.accessToken))
                let received = try await Self.collect(inbound, count: 1) {
                    try await places.move(to: shopPoint, token: anna.accessToken)
                }
                events.set(received)
            }
            let nearby = try events.value.first?.payload(as: NearbyBusiness.self)
            #expect(events.value.map(\.type) == [PlazaEventType.nearbyBusiness])
            #expect(nearby?.businessId == business.id && nearby?.name == "Bakery")
        }
    }

    @Test func aSocketWithoutAValidTokenIsClosed() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let close = try await client.ws("/v1/events") { inbound, outbound, _ in
                try await outbound.write(.text("not-a-token"))
                for try await _ in inbound.messages(maxSize: 1 << 14) {}
            }
            #expect(close?.closeCode == .policyViolation)
            let plain = try await client.execute(uri: "/v1/events", method: .get)
            #expect(plain.status == .badRequest)
            // A bad bearer on the upgrade itself: 401 invalid_token as on any route (ConnectionGuard checks it before
            // hummingbird-websocket, which answers every refused upgrade with a bare 400).
            let upgrade = try await client.execute(
                uri: "/v1/events",
                method: .get,
                headers: [
                    .upgrade: "websocket", .connection: "Upgrade", .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ==",
                    .secWebSocketVersion: "13",
                    .authorization: "Bearer not-a-token",
                ]
            )
            #expect(
                upgrade.status == .unauthorized && upgrade.headers[.wwwAuthenticate]?.contains("invalid_token") == true
            )
            #expect(String(buffer: upgrade.body).contains(#""code":"invalid_token""#))
        }
    }
}

/// Carries what a WebSocket handler saw out of its closure.
/// When something happened, once it has.
final class Moment: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)
    func set(_ value: ContinuousClock.Instant) { instant.withLock { $0 = value } }
    var value: ContinuousClock.Instant? { instant.withLock { $0 } }
}

final class EventBox: Sendable {
    private let events = Mutex<[PlazaEvent]>([])
    func set(_ value: [PlazaEvent]) { events.withLock { $0 = value } }
    func append(_ event: PlazaEvent) { events.withLock { $0.append(event) } }
    var value: [PlazaEvent] { events.withLock { $0 } }
}
