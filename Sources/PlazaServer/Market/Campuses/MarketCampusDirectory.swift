import Foundation
import PlazaCore

/// The marketplace's answer to the sign-up page's `CampusDirectory`: the operator's campuses, in name order.
struct MarketCampusDirectory: CampusDirectory {
    let market: MarketService

    func campuses() async throws -> [CampusSummary] {
        try await market.campuses().sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}
