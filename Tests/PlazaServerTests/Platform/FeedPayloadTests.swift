import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

/// The PostgreSQL feed's notifications: an event's audience is readable before its JSON, so a process where none
/// of them listens skips the event without decoding it; everything else arrives as it was sent.
@Suite struct FeedPayloadTests {
    let anna = UUID()
    let ben = UUID()

    @Test func anEventReachesAProcessWhereItsAudienceListensAndIsSkippedElsewhere() throws {
        let event = PlazaEvent(type: "transfer.received", occurredAt: Date(timeIntervalSince1970: 1_700_000_000), data: .object(["amount": .number(1250)]))
        let payload = try PostgresFeed.payload(.event(audience: [anna, ben], event: event))
        guard case .message(.event(let audience, let received)) = PostgresFeed.received(payload, wanted: { $0.contains(ben) }) else {
            Issue.record("not delivered: \(payload)")
            return
        }
        #expect(audience == [anna, ben])
        #expect(received.id == event.id && received.type == event.type && received.data == event.data)
        guard case .skipped = PostgresFeed.received(payload, wanted: { _ in false }) else {
            Issue.record("decoded although nobody listens")
            return
        }
    }

    @Test func otherMessagesAndGarbage() throws {
        guard case .message(.forget(let user)) = PostgresFeed.received(try PostgresFeed.payload(.forget(anna)), wanted: { _ in false }) else {
            Issue.record("forget lost")
            return
        }
        #expect(user == anna)
        for garbage in ["", "E", "Enot-a-uuid\n{}", "E\(anna.uuidString)\nnot json", "{\"nope\":1}"] {
            guard case .unreadable = PostgresFeed.received(garbage, wanted: { _ in true }) else {
                Issue.record("\(garbage) read as a message")
                continue
            }
        }
    }
}
