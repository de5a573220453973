import Foundation
import PlazaCore
import PlazaServer

extension DemoData {
    /// Bruno's running campaigns (a morning coupon at the bakery, an ad at the café, both reaching people who walk by)
    /// approved by the admin, and one more coupon waiting in the admin's review queue.
    static func seedOffers(
        _ services: PlazaServices,
        owner: Identity,
        businesses: [(id: UUID, name: String)],
        now: Date = Date()
    ) async throws {
        guard let adminUser = try await AccountStore().user(login: "admin", on: services.database.sql) else { return }
        let admin = Identity(user: adminUser, sessionID: UUID())
        let offers = services.offers
        let month = now.addingTimeInterval(30 * 86_400)
        for (business, name) in businesses {
            let content =
                name.contains("Bakery")
                ? CampaignContent(
                    kind: .coupon,
                    title: "Morning pretzel",
                    body: "20 % off any pretzel or loaf, when you pay with Plaza.",
                    startsAt: now.addingTimeInterval(-3_600),
                    endsAt: month,
                    target: CampaignTarget(radiusMeters: 150),
                    delivery: [.automatic, .manual],
                    discount: CouponDiscount(percentOff: 20),
                    maxDiscount: Money(amount: 300, currency: "USD"),
                    totalRedemptions: 200
                )
                : CampaignContent(
                    kind: .ad,
                    title: "Espresso on the terrace",
                    body: "Our terrace is open: sit in the sun with a view of the square.",
                    startsAt: now.addingTimeInterval(-3_600),
                    endsAt: month,
                    target: CampaignTarget(radiusMeters: 200),
                    delivery: [.automatic]
                )
            let campaign = try await offers.createCampaign(owner, business: business, content)
            _ = try await offers.submit(owner, campaign.id)
            let queue = try await services.admin.reviewQueue(state: .open, kind: .campaign, limit: 50, cursor: nil)
            if let item = queue.items.first(where: { $0.subjectId == campaign.id }) {
                _ = try await services.admin.decide(admin, item.id, approve: true, reason: nil)
            }
        }
        // Waiting for the admin: a stronger discount the lint warns about.
        if let bakery = businesses.first(where: { $0.name.contains("Bakery") }) {
            let pending = CampaignContent(
                kind: .coupon,
                title: "Saturday cake",
                body: "Half a cake for half the price, Saturdays only.",
                startsAt: now.addingTimeInterval(86_400),
                endsAt: month,
                schedule: [CampaignSchedule(weekdays: [6], from: "08:00", until: "14:00")],
                target: CampaignTarget(radiusMeters: 150, subscribersOnly: true),
                delivery: [.automatic],
                discount: CouponDiscount(percentOff: 50),
                totalRedemptions: 40
            )
            let campaign = try await offers.createCampaign(owner, business: bakery.id, pending)
            _ = try await offers.submit(owner, campaign.id)
        }
    }
}
