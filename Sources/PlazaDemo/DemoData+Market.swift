import Foundation
import PlazaCore
import PlazaServer

extension DemoData {
    /// The demo town's university with its safe spots and its terms, so that a student can join the campus marketplace
    /// with any `@isar-uni.edu` address (the code arrives in the demo's mailbox).
    static func seedMarket(_ services: PlazaServices, now: Date = Date()) async throws {
        guard try await services.market.allCampuses().isEmpty else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: now)
        let campus = try await services.market.createCampus(
            CampusRequest(
                name: "Isar University", domains: ["*.isar-uni.edu"], center: Coordinate(latitude: 48.1508, longitude: 11.5805),
                termEnds: (year...(year + 1)).flatMap { ["\($0)-02-15", "\($0)-07-31"] }))
        for spot in [
            SafeSpotRequest(
                name: "Main library lobby", latitude: 48.1502, longitude: 11.5811, description: "Inside the main entrance, by the staffed desk.",
                hours: "Mon–Sat 8–22"),
            SafeSpotRequest(
                name: "Campus police", latitude: 48.1497, longitude: 11.5792, description: "Geschwister-Scholl-Platz, ground floor.",
                hours: "Always open"),
            SafeSpotRequest(
                name: "Emergency telephone, Ludwigstraße", latitude: 48.1515, longitude: 11.5800, description: "The blue light pole by the fountain.",
                hours: "Always lit"),
        ] {
            _ = try await services.market.addSafeSpot(campus: campus.id, spot)
        }
    }
}
