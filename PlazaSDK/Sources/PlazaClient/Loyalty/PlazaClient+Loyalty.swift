import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Programs

    /// Anyone: a business's loyalty programs, running ones first, on one page (a business has few).
    public func loyaltyPrograms(business: UUID) async throws -> Page<LoyaltyProgram> {
        try await send("GET", "v1/businesses/\(business.uuidString.lowercased())/loyalty-programs")
    }

    /// Anyone: one program, with the business's public keys (a scanned token verifies offline against them).
    public func loyaltyProgram(_ id: UUID) async throws -> LoyaltyProgram {
        try await send("GET", "v1/loyalty-programs/\(id.uuidString.lowercased())")
    }

    /// Owners: starts a program for their business.
    public func createLoyaltyProgram(business: UUID, _ request: LoyaltyProgramRequest) async throws -> LoyaltyProgram {
        try await send(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty-programs",
            body: request,
            auth: .required
        )
    }

    /// Owners: pauses, resumes or ends a program, or changes its wording (its rules only before anyone holds a card).
    public func changeLoyaltyProgram(_ id: UUID, _ change: LoyaltyProgramChange) async throws -> LoyaltyProgram {
        try await send("PATCH", "v1/loyalty-programs/\(id.uuidString.lowercased())", body: change, auth: .required)
    }

    /// Owners: a new signing key; tokens of the previous one count for the sync grace.
    public func rotateLoyaltyKey(business: UUID) async throws -> [LoyaltySigningKey] {
        try await send("POST", "v1/businesses/\(business.uuidString.lowercased())/loyalty/keys", auth: .required)
    }

    /// Owners and staff: what the counter shows now (a new token on each call).
    public func punchToken(business: UUID, program: UUID, location: UUID) async throws -> PunchToken {
        try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty/punch-token",
            query: [
                URLQueryItem(name: "programId", value: program.uuidString.lowercased()),
                URLQueryItem(name: "locationId", value: location.uuidString.lowercased()),
            ],
            auth: .required
        )
    }

    // MARK: Cards

    /// Takes a program's card.
    public func takeLoyaltyCard(program: UUID) async throws -> LoyaltyCard {
        try await send("POST", "v1/loyalty-programs/\(program.uuidString.lowercased())/cards", auth: .required)
    }

    /// The caller's cards: collecting or full (`current`), or redeemed and expired (`history`).
    public func loyaltyCards(history: Bool = false, cursor: String? = nil) async throws -> Page<LoyaltyCard> {
        var query = [URLQueryItem(name: "view", value: history ? "history" : "current")]
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        return try await send("GET", "v1/me/loyalty-cards", query: query, auth: .required)
    }

    /// Whether paying may take the caller a first card of a program that earns on payment.
    public func loyaltySettings() async throws -> LoyaltySettings {
        try await send("GET", "v1/me/loyalty-settings", auth: .required)
    }

    /// Lets paying take a first card of a program that earns on payment (`cardOnPayment`), or stops it.
    public func setLoyaltySettings(_ settings: LoyaltySettings) async throws -> LoyaltySettings {
        try await send("PUT", "v1/me/loyalty-settings", body: settings, auth: .required)
    }

    /// A card with its punches and redemption.
    public func loyaltyCard(_ id: UUID) async throws -> LoyaltyCardDetail {
        try await send("GET", "v1/me/loyalty-cards/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Sends scans to be counted (1 to 100); each id counts once, so a retry is always safe.
    public func syncPunches(_ punches: [PunchSubmission]) async throws -> PunchBatchResult {
        try await send("POST", "v1/me/loyalty-punches", body: PunchBatch(punches: punches), auth: .required)
    }

    /// The card as an Apple Wallet pass (`.pkpass` bytes, for `PKAddPassesViewController`); not found where the Plaza
    /// signs no passes.
    public func applePass(card: UUID) async throws -> Data {
        try await sendData("GET", "v1/me/loyalty-cards/\(card.uuidString.lowercased())/apple-pass", auth: .required)
    }

    /// The card's "Save to Google Wallet" link; not found where the Plaza signs no Google passes.
    public func googleWalletLink(card: UUID) async throws -> GoogleWalletLink {
        try await send("GET", "v1/me/loyalty-cards/\(card.uuidString.lowercased())/google-wallet", auth: .required)
    }

    /// A full card's redeem code, to show at the counter (two minutes).
    public func redeemCode(card: UUID) async throws -> RedeemCode {
        try await send("POST", "v1/me/loyalty-cards/\(card.uuidString.lowercased())/redeem-code", auth: .required)
    }

    // MARK: Counter

    /// Owners and staff: confirms a customer's redeem code (typed or scanned); retried safely with one key.
    public func redeem(
        business: UUID,
        _ request: RedemptionRequest,
        idempotencyKey: String? = nil
    ) async throws -> LoyaltyRedemption {
        try await sendMoney(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty-redemptions",
            body: request,
            idempotencyKey: idempotencyKey
        )
    }

    /// Owners and staff: cards completed and rewards redeemed, newest first; only of one program, at one location, from
    /// `from` (inclusive) until `to` (exclusive) when given.
    public func loyaltyHistory(
        business: UUID,
        program: UUID? = nil,
        location: UUID? = nil,
        from: Date? = nil,
        to: Date? = nil,
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<LoyaltyHistoryEntry> {
        let query =
            Self.historyQuery(program: program, location: location, from: from, to: to)
            + Self.query(["limit": limit.map(String.init), "cursor": cursor])
        return try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty/history",
            query: query,
            auth: .required
        )
    }

    /// The same history (the same filters, every page) as CSV, for a spreadsheet.
    public func loyaltyHistoryCSV(
        business: UUID,
        program: UUID? = nil,
        location: UUID? = nil,
        from: Date? = nil,
        to: Date? = nil
    ) async throws -> Data {
        try await sendData(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty/history.csv",
            query: Self.historyQuery(program: program, location: location, from: from, to: to),
            auth: .required
        )
    }

    private static func historyQuery(program: UUID?, location: UUID?, from: Date?, to: Date?) -> [URLQueryItem] {
        query([
            "programId": program?.uuidString.lowercased(), "locationId": location?.uuidString.lowercased(),
            "from": from.map(RFC3339.format),
            "to": to.map(RFC3339.format),
        ])
    }
}

extension PlazaClient {
    // MARK: The customer's code, scanned by staff

    /// An active card's punch code for staff to scan or type (its 30-second window; ask again as it expires).
    public func punchCode(card: UUID) async throws -> CustomerCode {
        try await send("POST", "v1/me/loyalty-cards/\(card.uuidString.lowercased())/punch-code", auth: .required)
    }

    /// Owners and staff: punches the card whose code the customer shows (typed or scanned); retried safely with one key.
    public func punchCustomer(
        business: UUID,
        _ request: CounterPunchRequest,
        idempotencyKey: String? = nil
    ) async throws -> CounterPunch {
        try await sendMoney(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty/punches",
            body: request,
            idempotencyKey: idempotencyKey
        )
    }
}

extension PlazaClient {
    // MARK: Analytics and sharing

    /// Owners and staff: a program's last `months` months (figures over fewer than 5 customers are nil).
    public func loyaltyAnalytics(business: UUID, program: UUID, months: Int? = nil) async throws -> LoyaltyAnalytics {
        var query = [URLQueryItem(name: "programId", value: program.uuidString.lowercased())]
        if let months { query.append(URLQueryItem(name: "months", value: String(months))) }
        return try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty/analytics",
            query: query,
            auth: .required
        )
    }

    /// Owners and staff: the customers who chose to share their history with the business.
    public func loyaltyRegulars(business: UUID) async throws -> [LoyaltyRegular] {
        let page: Page<LoyaltyRegular> = try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/loyalty/regulars",
            auth: .required
        )
        return page.items
    }

    /// Lets a business see your own card history there, or stops it.
    public func shareLoyaltyHistory(with business: UUID, _ share: Bool) async throws -> LoyaltySharing {
        try await send(
            "PUT",
            "v1/me/loyalty-sharing/\(business.uuidString.lowercased())",
            body: LoyaltySharingRequest(share: share),
            auth: .required
        )
    }
}
