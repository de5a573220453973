import Foundation
import PlazaCore
import SQLKit

/// Offers running in town: active campaigns of listed businesses, running now, whoever they reached.
extension OffersStore {
    /// Ending soonest first (then by id), after the campaign `after`; by the business's folded name and description
    /// and its category, as the customer's own offer search reads them.
    func townCampaigns(
        search: (text: String?, category: BusinessCategory?),
        now: Date,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [CampaignRecord] {
        var select = Self.running(now: now, on: db)
        if let text = search.text, !text.isEmpty {
            let pattern = LikePattern.containing(PlacesRules.searchFolded(text))
            select = select.where(
                SQLQueryString(
                    "EXISTS (SELECT 1 FROM businesses s WHERE s.id = campaigns.business_id AND s.search_text LIKE \(bind: pattern) ESCAPE '\\')"
                )
            )
        }
        if let category = search.category {
            select = select.where(
                SQLQueryString(
                    "EXISTS (SELECT 1 FROM businesses s WHERE s.id = campaigns.business_id AND s.category = \(bind: category.rawValue))"
                )
            )
        }
        if let after {
            let ends = SQLQueryString("(SELECT ends_at FROM campaigns WHERE id = \(bind: after))")
            select = select.where {
                $0.where(SQLColumn("ends_at", table: "campaigns"), .greaterThan, ends).orWhere {
                    $0.where(SQLColumn("ends_at", table: "campaigns"), .equal, ends).where(
                        SQLColumn("id", table: "campaigns"),
                        .greaterThan,
                        SQLBind(after)
                    )
                }
            }
        }
        let order = [SQLColumn("ends_at", table: "campaigns"), SQLColumn("id", table: "campaigns")]
        for column in order {
            select = select.orderBy(SQLOrderBy(expression: column, direction: SQLDirection.ascending))
        }
        return try await select.limit(limit).all().map(Self.campaign)
    }

    /// One campaign running in town now.
    func townCampaign(_ id: UUID, now: Date, on db: any SQLDatabase) async throws -> CampaignRecord? {
        try await Self.running(now: now, on: db).where(SQLColumn("id", table: "campaigns"), .equal, SQLBind(id))
            .first().map(Self.campaign)
    }

    private static func running(now: Date, on db: any SQLDatabase) -> SQLSelectBuilder {
        db.select().columns(campaignColumnNames.map { SQLColumn($0, table: "campaigns") }).from("campaigns")
            .where(SQLColumn("state", table: "campaigns"), .equal, SQLBind(CampaignState.active.rawValue))
            .where(SQLColumn("starts_at", table: "campaigns"), .lessThanOrEqual, SQLBind(now))
            .where(SQLColumn("ends_at", table: "campaigns"), .greaterThan, SQLBind(now))
            .where(
                SQLQueryString(
                    "EXISTS (SELECT 1 FROM businesses b WHERE b.id = campaigns.business_id AND b.listed = \(bind: true))"
                )
            )
    }
}
