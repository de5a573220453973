import PlazaCore

/// The universities a person may pick when signing up (issue 24: "the sign-up page lets a person pick theirs"); the
/// marketplace answers it (`MarketCampusDirectory`), so Accounts never reaches into the marketplace's service.
protocol CampusDirectory: Sendable {
    func campuses() async throws -> [CampusSummary]
}
