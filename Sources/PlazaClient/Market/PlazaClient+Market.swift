import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Joining a campus

    /// The campuses of this Plaza, for a person picking theirs (no sign-in needed).
    public func campuses() async throws -> [CampusSummary] {
        let page: Page<CampusSummary> = try await send("GET", "v1/market/campuses")
        return page.items
    }

    /// Mails a six-digit code to a university address (`campus_required` routes open once it is verified).
    public func startCampusEmail(_ email: String) async throws {
        let _: Acknowledgement = try await send("POST", "v1/me/campus-email", body: CampusEmailRequest(email: email), auth: .required)
    }

    /// Proves the address with its mailed code: the account joins its campus until the next term end and a grace period.
    public func verifyCampusEmail(_ email: String, code: String) async throws -> CampusMembership {
        try await send("POST", "v1/me/campus-email/verify", body: CampusEmailVerification(email: email, code: code), auth: .required)
    }

    /// My campus membership, or nil when I never verified or it lapsed.
    public func myCampus() async throws -> CampusMembership? {
        do {
            return try await send("GET", "v1/me/campus", auth: .required)
        } catch let error as PlazaClientError where error.code == .notFound {
            return nil
        }
    }

    // MARK: The agreement

    public func marketAgreement() async throws -> MarketAgreement {
        try await send("GET", "v1/market/agreement", auth: .required)
    }

    /// Signs the version shown (`agreement.version`).
    public func signMarketAgreement(version: Int) async throws -> MarketAgreement {
        try await send("POST", "v1/market/agreement/sign", body: AgreementSignature(version: version), auth: .required)
    }

    /// Withdraws the signature: my listings hide and the marketplace closes to me until I sign again.
    public func unsignMarketAgreement() async throws -> MarketAgreement {
        try await send("POST", "v1/market/agreement/unsign", auth: .required)
    }

    // MARK: The campus

    public func marketCategories() async throws -> [MarketCategory] {
        let page: Page<MarketCategory> = try await send("GET", "v1/market/categories", auth: .required)
        return page.items
    }

    /// My campus's safe spots to meet at.
    public func safeSpots() async throws -> [SafeSpot] {
        let page: Page<SafeSpot> = try await send("GET", "v1/market/safe-spots", auth: .required)
        return page.items
    }
}
