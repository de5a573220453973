import Foundation
import PlazaCore
import PlazaServer
import SQLKit

/// The people and shops of `plaza bench offers`, written straight into the tables as `GeoBenchData` does.
enum OffersBenchData {
    struct Mover: Sendable {
        var id: UUID
        var token: String
    }

    /// `count` customers sharing with merchants who let nearby shops' ads and coupons reach them (up to 20 a day), or
    /// (`nearby` false) who kept the default: only shops they subscribed to, so every campaign is matched and none delivered.
    static func movers(_ count: Int, services: PlazaServices, seed: UInt64, nearby: Bool = true) async throws -> [Mover]
    {
        var generator = BenchRandom(seed: seed)
        let people = (0..<count).map { _ in (id: generator.uuid(), coordinate: Coordinate(latitude: 0, longitude: 0)) }
        let chosen = nearby ? OfferSettings(ads: .nearby, coupons: .nearby, maxPerDay: 20) : OfferSettings()
        let settings = String(decoding: try PlazaJSON.encoder().encode(chosen), as: UTF8.self)
        let seeded = Date().addingTimeInterval(-3_600)
        try await services.database.transaction { db in
            for start in stride(from: 0, to: people.count, by: 500) {
                let chunk = people[start..<min(start + 500, people.count)]
                try await GeoBenchData.insert(chunk, recordedAt: seeded, on: db)
                var rows = db.insert(into: "offer_settings").columns("user_id", "settings", "updated_at")
                for person in chunk { rows = rows.values(SQLBind(person.id), SQLBind(settings), SQLBind(seeded)) }
                try await rows.run()
            }
        }
        var movers: [Mover] = []
        for person in people {
            movers.append(Mover(id: person.id, token: try await GeoBench.session(for: person.id, services: services)))
        }
        return movers
    }

    /// `count` active campaigns with automatic delivery, spread evenly over `businesses` shops at random points of the
    /// town (one location each); a tenth are ads, the rest coupons. Answers how many shops.
    static func campaigns(
        _ count: Int,
        businesses: Int,
        center: Coordinate,
        halfSide: Double,
        services: PlazaServices,
        generator: inout BenchRandom
    ) async throws -> Int {
        let merchant = UserRecord(
            id: UUID(),
            email: "offers@bench.invalid",
            username: "benchoffers",
            displayName: "Bench offers",
            passwordHash: "",
            role: .merchant,
            emailVerified: true,
            now: Date()
        )
        try await AccountStore().insert(merchant, on: services.database.sql)
        let owner = Identity(user: merchant, sessionID: UUID())
        var shops: [UUID] = []
        for number in 0..<max(1, businesses) {
            let point = GeoBenchData.point(center: center, halfSide: halfSide, &generator)
            let business = try await services.businesses.createBusiness(
                owner,
                CreateBusinessRequest(name: "Shop \(number)", category: .retail)
            )
            _ = try await services.businesses.addLocation(
                owner,
                business: business.id,
                LocationRequest(
                    name: "Bench",
                    address: "Bench",
                    latitude: point.latitude,
                    longitude: point.longitude,
                    radiusMeters: 50
                )
            )
            shops.append(business.id)
        }
        let (now, findings, shopIDs) = (Date(), "[]", shops)
        for start in stride(from: 0, to: count, by: 500) {
            try await services.database.transaction { db in
                var rows = db.insert(into: "campaigns").columns(
                    "id",
                    "business_id",
                    "kind",
                    "content",
                    "approved",
                    "state",
                    "findings",
                    "rejection_reason",
                    "pending_change",
                    "starts_at",
                    "ends_at",
                    "claimed",
                    "created_by",
                    "created_at",
                    "updated_at"
                )
                for index in start..<min(start + 500, count) {
                    let coupon = index % 10 != 0
                    let content = CampaignContent(
                        kind: coupon ? .coupon : .ad,
                        title: "Offer \(index)",
                        body: "Bench offer \(index)",
                        startsAt: now.addingTimeInterval(-3_600),
                        endsAt: now.addingTimeInterval(86_400),
                        target: CampaignTarget(radiusMeters: 100 + (index % 5) * 50),
                        delivery: [.automatic],
                        discount: coupon ? CouponDiscount(percentOff: 10) : nil,
                        totalRedemptions: coupon ? 1_000 : nil
                    )
                    let json = String(decoding: try PlazaJSON.encoder().encode(content), as: UTF8.self)
                    rows = rows.values(
                        SQLBind(UUID()),
                        SQLBind(shopIDs[index % shopIDs.count]),
                        SQLBind(content.kind.rawValue),
                        SQLBind(json),
                        SQLBind(json),
                        SQLBind(CampaignState.active.rawValue),
                        SQLBind(findings),
                        SQLBind(nil as String?),
                        SQLBind(false),
                        SQLBind(content.startsAt),
                        SQLBind(content.endsAt),
                        SQLBind(0),
                        SQLBind(merchant.id),
                        SQLBind(now),
                        SQLBind(now)
                    )
                }
                try await rows.run()
            }
        }
        return shops.count
    }
}
