import Foundation
import PlazaCore
import SQLKit

/// Time moves campaigns on: an approved one starts (reaching its subscribers), a running one ends (its unused claims
/// expire and its team is told). The offers background work calls `advanceCampaigns` every minute; every process may
/// run it, since each campaign moves under its row lock.
extension OffersService {
    @discardableResult
    func advanceCampaigns(now: Date = Date()) async throws -> Int {
        let due = try await store.campaignsDue(now: now, on: database.sql)
        for id in due {
            try await events.transaction { db in
                guard var record = try await store.campaign(id, forUpdate: true, on: db) else { return ((), []) }
                let content = record.running
                var messages: [FeedMessage] = []
                if [.approved, .active, .paused].contains(record.state), content.endsAt <= now {
                    (record.state, record.updatedAt) = (.ended, now)
                    try await store.update(record, on: db)
                    try await store.expireClaims(campaign: id, on: db)
                    let team =
                        try await businesses.store.memberIDs(businesses: [record.businessId], on: db)[record.businessId]
                        ?? []
                    let told = Wording(
                        title: phrase("Your campaign “{title}” has ended"),
                        body: phrase("Its offers are no longer shown; its figures stay on the campaign's page."),
                        values: ["title": content.title]
                    )
                    let link = "/offers/campaigns/\(id.uuidString.lowercased())"
                    messages = team.map { .alert(user: $0, kind: .account, link: link, told) } + [.campaignsChanged]
                } else if record.state == .approved, content.startsAt <= now {
                    (record.state, record.updatedAt) = (.active, now)
                    try await store.update(record, on: db)
                    messages = [.campaignsChanged] + (try await broadcast(record, now: now, on: db))
                }
                return ((), messages)
            }
        }
        return due.count
    }

    /// `GET /v1/campaigns/{id}/stats`: owners and staff; counts under 5 withheld.
    func stats(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> CampaignStats {
        let (record, _) = try await member(identity, campaign: id)
        let content = record.running
        let facts = try await store.statsFacts(campaign: id, on: database.sql)
        let (totals, days) = CampaignStatsRules.stats(facts, calendar: calendar, now: now)
        let currency =
            content.discount?.currency ?? content.minimumSpend?.currency ?? content.maxDiscount?.currency
            ?? self.currency
        return CampaignStats(campaignId: id, currency: currency, totals: totals, days: days)
    }
}
