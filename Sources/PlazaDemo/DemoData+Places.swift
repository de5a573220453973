import Foundation
import PlazaCore
import PlazaServer
import SQLKit

extension DemoData {
    /// The demo town's square (Marienplatz, Munich): where the demo's shops are.
    public static let square = Coordinate(latitude: 48.1374, longitude: 11.5755)

    /// Bruno's two shops on the square with eight weeks of made-up foot traffic, and a recent line report,
    /// so the business pages and the map have something to show. Only on a database without them.
    static func seedPlaces(_ services: PlazaServices, now: Date = Date()) async throws {
        guard let bruno = try await AccountStore().user(login: "bruno", on: services.database.sql),
            let anna = try await AccountStore().user(login: "anna", on: services.database.sql)
        else { return }
        let owner = Identity(user: bruno, sessionID: UUID())
        guard try await services.businesses.myBusinesses(owner).isEmpty else { return }
        try await seedPendingMerchant(services)
        let shops: [(String, BusinessCategory, String, Coordinate, Int)] = [
            (
                "Bruno's Bakery", .grocery, "Bread, pretzels and coffee since 1987.",
                square.offset(north: 40, east: -60), 60
            ),
            ("Corner Café", .cafe, "Espresso bar with a view of the square.", square.offset(north: -90, east: 120), 40),
        ]
        var zoned = Calendar(identifier: .gregorian)
        zoned.timeZone = services.configuration.places.timeZone
        let calendar = zoned
        var generator = SystemRandomNumberGenerator()
        var created: [(id: UUID, name: String)] = []
        for (name, category, description, point, radius) in shops {
            let business = try await services.businesses.createBusiness(
                owner,
                CreateBusinessRequest(name: name, category: category, description: description)
            )
            created.append((business.id, name))
            let location = try await services.businesses.addLocation(
                owner,
                business: business.id,
                LocationRequest(
                    name: "Marienplatz",
                    address: "Marienplatz, 80331 München",
                    latitude: point.latitude,
                    longitude: point.longitude,
                    radiusMeters: radius,
                    openingHours: (1...6).map { OpeningPeriod(day: $0, opens: "07:00", closes: "19:00") }
                )
            )
            // A lunchtime and an evening peak on weekdays, busier Saturdays, closed Sundays.
            let noise = (0..<(8 * 7 * 24)).map { _ in Int.random(in: 0...3, using: &generator) }
            try await services.database.transaction { db in
                for hoursAgo in stride(from: 8 * 7 * 24, to: 1, by: -1) {
                    let start = PlacesService.hourStart(now.addingTimeInterval(-Double(hoursAgo) * 3_600))
                    let (weekday, hour) = PopularTimesTable.slot(start, calendar)
                    guard weekday < 7, (7..<19).contains(hour) else { continue }
                    let shape =
                        [7: 3, 8: 6, 9: 5, 10: 4, 11: 6, 12: 10, 13: 9, 14: 5, 15: 4, 16: 6, 17: 8, 18: 5][hour] ?? 2
                    let visits = shape * (weekday == 6 ? 2 : 1) + noise[hoursAgo % noise.count]
                    try await db.insert(into: "visit_hours").columns("location_id", "hour_start", "visits")
                        .values(SQLBind(location.id), SQLBind(start), SQLBind(visits)).run()
                    // Regulars: a cell is shown only with five distinct people behind it (marks as `closeStay` writes them).
                    for person in 0..<6 {
                        try await db.insert(into: "visit_people").columns(
                            "location_id",
                            "weekday",
                            "hour",
                            "person_mark",
                            "last_seen"
                        )
                        .values(
                            SQLBind(location.id),
                            SQLBind(weekday),
                            SQLBind(hour),
                            SQLBind("demo-\(person)"),
                            SQLBind(start)
                        )
                        .onConflict(with: ["location_id", "weekday", "hour", "person_mark"]) {
                            $0.set(excludedValueOf: "last_seen")
                        }.run()
                    }
                }
            }
            if category == .grocery {
                try await seedLoyalty(services, owner: owner, anna: anna, business: business.id, location: location.id)
            }
            try await StayStore().insertLineWait(
                location: location.id,
                user: anna.id,
                minutes: category == .cafe ? 4 : 7,
                at: now.addingTimeInterval(-300),
                on: services.database.sql
            )
        }
        try await seedOffers(services, owner: owner, businesses: created, now: now)
    }

    /// Dora's flower stall: a merchant who signed up and waits for the admin (unlisted until approved).
    static func seedPendingMerchant(_ services: PlazaServices) async throws {
        guard let dora = try await AccountStore().user(login: "dora", on: services.database.sql), dora.awaitsApproval
        else { return }
        let owner = Identity(user: dora, sessionID: UUID())
        guard try await services.businesses.myBusinesses(owner).isEmpty else { return }
        let business = try await services.businesses.createBusiness(
            owner,
            CreateBusinessRequest(
                name: "Dora's Flowers",
                category: .retail,
                description: "Tulips, roses and wreaths from the market stall."
            )
        )
        let point = square.offset(north: 70, east: 90)
        _ = try await services.businesses.addLocation(
            owner,
            business: business.id,
            LocationRequest(
                name: "Market stall",
                address: "Marienplatz 8, 80331 München",
                latitude: point.latitude,
                longitude: point.longitude,
                radiusMeters: 25
            )
        )
    }

    /// The bakery's coffee card (paying with Plaza punches it too), and Anna holding one with three punches (each from
    /// another day's token).
    static func seedLoyalty(
        _ services: PlazaServices,
        owner: Identity,
        anna: UserRecord,
        business: UUID,
        location: UUID
    ) async throws {
        let program = try await services.loyalty.createProgram(
            owner,
            business: business,
            LoyaltyProgramRequest(
                title: "Coffee card",
                description: "Buy nine coffees, the tenth is on us.",
                punchesRequired: 10,
                reward: "A coffee",
                levels: [LoyaltyLevel(punchesRequired: 8, reward: "A coffee and a pastry")],
                cardValidDays: 365,
                minimumSpend: Money(amount: 250, currency: "USD"),
                // Paying the bakery with Plaza punches the card by itself.
                earnOnPayment: true
            )
        )
        let customer = Identity(user: anna, sessionID: UUID())
        let card = try await services.loyalty.takeCard(customer, program: program.id)
        var punches: [PunchSubmission] = []
        for day in 1...3 {
            let token = try await services.loyalty.punchToken(
                owner,
                business: business,
                program: program.id,
                location: location,
                now: Date().addingTimeInterval(-Double(day) * 86_400)
            )
            punches.append(
                PunchSubmission(
                    cardId: card.id,
                    token: token.token,
                    scannedAt: Date().addingTimeInterval(-Double(day) * 86_400)
                )
            )
        }
        _ = try await services.loyalty.sync(customer, PunchBatch(punches: punches))
        try await seedLoyaltyHistory(
            services,
            owner: owner,
            program: program.id,
            business: business,
            location: location
        )
    }
}
