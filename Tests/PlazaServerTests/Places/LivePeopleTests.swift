import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

/// The packed live index against a plain dictionary of the same people: the same people found by id and by circle,
/// through moves, removals, slot reuse and the table's growth.
@Suite struct LivePeopleTests {
    static func position(_ user: UUID, _ at: Coordinate, stays: [OpenStay] = [], zone: UUID? = nil) -> LivePosition {
        LivePosition(
            userId: user,
            username: "u\(user.uuidString.prefix(4))",
            displayName: "U",
            latitude: at.latitude,
            longitude: at.longitude,
            recordedAt: Date(timeIntervalSinceReferenceDate: 1_000),
            level: .merchants,
            zoneId: zone,
            published: nil,
            stays: stays
        )
    }

    @Test func findsWhatADictionaryFindsThroughMovesAndRemovals() {
        var generator = SeededGenerator(seed: 43)
        var people = LivePeople()
        var model: [UUID: Coordinate] = [:]
        var users: [UUID] = []
        // Ids that share their first half: the hash must mix both halves.
        let prefix = UUID().uuid
        for round in 0..<6 {
            for _ in 0..<3_000 {
                var bytes = prefix
                withUnsafeMutableBytes(of: &bytes) { raw in
                    raw.storeBytes(of: generator.next(), toByteOffset: 8, as: UInt64.self)
                }
                let user = round % 2 == 0 ? UUID(uuid: bytes) : UUID()
                let point = round == 5 ? GeoGridTests.randomPoint(&generator) : Self.nearby(&generator)
                people.put(Self.position(user, point))
                model[user] = point
                users.append(user)
            }
            // Moves (many across cells), removals, and removals of people never added.
            for _ in 0..<1_000 {
                let user = users.randomElement(using: &generator)!
                if Bool.random(using: &generator) {
                    people.remove(user)
                    model[user] = nil
                } else if model[user] != nil {
                    let point = Self.nearby(&generator)
                    people.put(Self.position(user, point))
                    model[user] = point
                }
            }
            people.remove(UUID())
            #expect(people.count == model.count)
            for user in users {
                let slot = people.slot(of: user)
                #expect((slot != nil) == (model[user] != nil))
                if let slot, let point = model[user] {
                    #expect(people.user(slot) == user && people.person(slot).coordinate == point)
                }
            }
            for _ in 0..<40 {
                let center = round == 5 ? GeoGridTests.randomPoint(&generator) : Self.nearby(&generator)
                let radius = [50.0, 200, 1_000].randomElement(using: &generator)!
                var found: Set<UUID> = []
                people.forEach(within: radius, of: center) { found.insert(people.user($0.slot)) }
                #expect(found == Set(model.filter { $0.value.distance(to: center) <= radius }.keys))
            }
        }
    }

    /// Names and stays are kept only while someone stays somewhere, and go with the stay.
    @Test func namesAreKeptOnlyWhileStaying() throws {
        var people = LivePeople()
        let (user, shop) = (UUID(), UUID())
        let here = Coordinate(latitude: 48.2, longitude: 16.37)
        people.put(Self.position(user, here, stays: [OpenStay(locationId: shop, enteredAt: .now)]))
        let slot = try #require(people.slot(of: user))
        #expect(people.staying(slot)?.stays.map(\.locationId) == [shop])
        #expect(people.person(slot).isCountable && people.person(slot).isStaying)
        people.put(Self.position(user, here, zone: UUID()))
        #expect(people.staying(slot) == nil && !people.person(slot).isStaying)
        #expect(!people.person(slot).isCountable, "inside a private zone: never counted")
        people.remove(user)
        let other = UUID()
        #expect(people.put(Self.position(other, here)) == slot, "a freed slot is used again")
        #expect(people.staying(slot) == nil)
    }

    /// A small town, so that moves often stay in their cell and circles hold many people.
    static func nearby(_ generator: inout some RandomNumberGenerator) -> Coordinate {
        Coordinate(latitude: 48.2, longitude: 16.37).offset(
            north: .random(in: -3_000...3_000, using: &generator),
            east: .random(in: -3_000...3_000, using: &generator)
        )
    }
}
