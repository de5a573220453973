import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

/// The PostgreSQL feed's notifications: an event's audience is readable before its JSON, so a process where none
/// of them listens skips the event without decoding it; everything else arrives as it was sent, and many messages
/// share one notification as long as it stays under PostgreSQL's size limit.
@Suite struct FeedPayloadTests {
    let anna = UUID()
    let ben = UUID()

    @Test func anEventReachesAProcessWhereItsAudienceListensAndIsSkippedElsewhere() throws {
        let event = PlazaEvent(
            type: "transfer.received",
            occurredAt: Date(timeIntervalSince1970: 1_700_000_000),
            data: .object(["amount": .number(1250)])
        )
        let payload = try PostgresFeed.payload(.event(audience: [anna, ben], event: event))
        let received = PostgresFeed.received(payload, wanted: { $0.contains(ben) })
        guard received.count == 1, case .message(.event(let audience, let delivered)) = received[0] else {
            Issue.record("not delivered: \(payload)")
            return
        }
        #expect(audience == [anna, ben])
        #expect(delivered.id == event.id && delivered.type == event.type && delivered.data == event.data)
        guard case .skipped = PostgresFeed.received(payload, wanted: { _ in false }).first else {
            Issue.record("decoded although nobody listens")
            return
        }
    }

    @Test func anEventWhoseDataIsJSONAlreadyArrivesWithThatData() throws {
        let json = #"{"amount":1250,"currency":"USD","note":"line one\nline two","to":{"username":"ben"}}"#
        let payload = try PostgresFeed.eventPayload(
            audience: [ben],
            type: "transfer.received",
            occurredAt: Date(timeIntervalSince1970: 1_700_000_000),
            data: json
        )
        guard
            case .message(.event(let audience, let event)) = PostgresFeed.received(payload, wanted: { _ in true }).first
        else {
            Issue.record("not delivered: \(payload)")
            return
        }
        #expect(audience == [ben])
        #expect(event.type == "transfer.received" && event.occurredAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(event.data == (try PlazaJSON.decoder().decode(JSONValue.self, from: Data(json.utf8))))
    }

    @Test func manyMessagesShareNotificationsUnderTheLimitAndArriveInOrder() throws {
        let events = (0..<40).map { index in
            PlazaEvent(
                type: "transfer.received",
                occurredAt: Date(),
                data: .object(["n": .number(Double(index)), "pad": .string(String(repeating: "x", count: 300))])
            )
        }
        let payloads =
            try events.map {
                try PostgresFeed.payload(.event(audience: [$0.data == events[3].data ? anna : ben], event: $0))
            }
            + [try PostgresFeed.payload(.forget(anna))]
        let packed = PostgresFeed.pack(payloads)
        #expect(packed.count > 1 && packed.count < payloads.count)
        #expect(packed.allSatisfy { $0.utf8.count <= PostgresFeed.maximumPayload })
        let received = packed.flatMap { PostgresFeed.received($0, wanted: { $0 == [self.ben] }) }
        #expect(received.count == 41)
        var delivered: [PlazaEvent] = []
        for (index, item) in received.enumerated() {
            switch item {
            case .message(.event(_, let event)): delivered.append(event)
            case .skipped: #expect(index == 3)
            case .message(.forget(let user)): #expect(index == 40 && user == anna)
            default: Issue.record("message \(index) unreadable")
            }
        }
        #expect(delivered.map(\.id) == events.enumerated().filter { $0.offset != 3 }.map(\.element.id))
    }

    @Test func otherMessagesAndGarbage() throws {
        guard
            case .message(.forget(let user)) = PostgresFeed.received(
                try PostgresFeed.payload(.forget(anna)),
                wanted: { _ in false }
            ).first
        else {
            Issue.record("forget lost")
            return
        }
        #expect(user == anna)
        for garbage in ["", "E", "Enot-a-uuid\n{}", "E\(anna.uuidString)\nnot json", "{\"nope\":1}"] {
            let received = PostgresFeed.received(garbage, wanted: { _ in true })
            guard received.count == 1, case .unreadable = received[0] else {
                Issue.record("\(garbage) read as \(received)")
                continue
            }
        }
    }
}
