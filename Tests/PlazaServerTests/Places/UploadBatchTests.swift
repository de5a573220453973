import Foundation
import HTTPTypes
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 43: uploads that arrive together share one transaction (`UploadBatcher`), each step one statement for all.
@Suite struct UploadBatchTests {
    let shopPoint = Coordinate(latitude: 48.2082, longitude: 16.3738)

    /// Each upload in a batch gets what it would have got alone: its own counts, a refusal for a person whose
    /// sharing is off (the others still land), a person's second upload applied after the first, and everyone's
    /// newest position and stays where their own points put them.
    @Test(arguments: TestEngine.enabled)
    func uploadsInOneBatchEachGetWhatTheyWouldAlone(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let places = PlacesDriver(client)
            let (owner, business, _) = try await places.shop(at: shopPoint)
            func user(_ tokens: TokenResponse) async throws -> UserRecord {
                try #require(try await AccountStore().user(id: tokens.user.id, on: services.database.sql))
            }
            let ann = try await user(try await places.sharingCustomer("ann"))
            let ben = try await user(try await places.sharingCustomer("ben"))
            let cid = try await user(try await places.sharingCustomer("cid"))
            let dan = try await user(try await AccountsDriver(client).signedIn("dan"))
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let far = shopPoint.offset(north: 3_000)
            func at(_ place: Coordinate, _ ago: TimeInterval) -> LocationPoint {
                LocationPoint(
                    latitude: place.latitude,
                    longitude: place.longitude,
                    accuracy: 8,
                    recordedAt: now.addingTimeInterval(-ago)
                )
            }
            let jobs = [
                UploadJob(user: ann, points: [at(shopPoint, 60), at(shopPoint, 40)], now: now),
                UploadJob(user: ben, points: [at(far, 50), at(shopPoint.offset(north: 20), 30)], now: now),
                UploadJob(user: dan, points: [at(shopPoint, 20)], now: now),
                // Ann again: one point repeats her first upload's, one is newer.
                UploadJob(user: ann, points: [at(shopPoint, 40), at(shopPoint.offset(north: 10), 10)], now: now),
                UploadJob(user: cid, points: [at(far, 5)], now: now),
            ]
            #expect(PlacesService.rounds(jobs) == [[0, 1, 2, 4], [3]])
            let outcomes = await services.places.runUploads(jobs)
            let results = outcomes.map { try? $0.get() }
            #expect(results[0] == LocationUploadResult(accepted: 2, duplicates: 0))
            #expect(results[1] == LocationUploadResult(accepted: 2, duplicates: 0))
            #expect(results[3] == LocationUploadResult(accepted: 1, duplicates: 1))
            #expect(results[4] == LocationUploadResult(accepted: 1, duplicates: 0))
            guard case .failure(let refused as PlazaError) = outcomes[2] else {
                Issue.record("Dan shares nothing, yet his upload was taken: \(outcomes[2])")
                return
            }
            #expect(refused.code == .locationSharingOff)

            #expect(
                try await places.present(business: business.id, token: owner.accessToken).sorted() == ["ann", "ben"]
            )
            #expect(services.places.index.position(of: ann.id)?.recordedAt == now.addingTimeInterval(-10))
            #expect(services.places.index.position(of: cid.id)?.latitude == far.latitude)
            #expect(services.places.index.position(of: dan.id) == nil)
            let annHistory = try await services.places.history(
                Identity(user: ann, sessionID: UUID()),
                from: nil,
                to: nil
            )
            #expect(annHistory.features.count == 3)
        }
    }

    /// Uploads racing each other, several per person with points in common, in as many batches as they fall into
    /// (PostgreSQL runs four at once): every point is counted once as accepted, and everyone's newest position is their
    /// newest point, whichever upload carried it.
    @Test(arguments: TestEngine.enabled)
    func racingUploadsCountEachPointOnceAndKeepTheNewest(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let places = PlacesDriver(client)
            var people: [(id: UUID, token: String)] = []
            for name in ["ann", "ben", "cid"] {
                let tokens = try await places.sharingCustomer(name)
                people.append((tokens.user.id, tokens.accessToken))
            }
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded(.down))
            // Upload k of a person carries their points k…k+4: each point is sent up to five times.
            let uploads = people.flatMap { person in
                (0..<12).map { k in
                    (
                        person,
                        (k..<k + 5).map {
                            LocationPoint(
                                latitude: shopPoint.latitude + Double($0) / 10_000,
                                longitude: shopPoint.longitude,
                                accuracy: 5,
                                recordedAt: start.addingTimeInterval(Double($0) * 10)
                            )
                        }
                    )
                }
            }
            let accepted = try await withThrowingTaskGroup(of: (UUID, Int).self) { group in
                for (person, points) in uploads.shuffled() {
                    group.addTask {
                        let response = try await places.upload(points, token: person.token)
                        return (person.id, try response.decode(LocationUploadResult.self).accepted)
                    }
                }
                return try await group.reduce(into: [UUID: Int]()) { $0[$1.0, default: 0] += $1.1 }
            }
            for person in people {
                #expect(accepted[person.id] == 16)
                #expect(
                    services.places.index.position(of: person.id)?.recordedAt == start.addingTimeInterval(15 * 10)
                )
            }
        }
    }
}
