import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Campaigns (owners and staff)

    /// Writes a campaign as a draft; its `findings` are the policy lint's.
    public func createCampaign(business: UUID, _ content: CampaignContent) async throws -> Campaign {
        try await send("POST", "v1/businesses/\(business.uuidString.lowercased())/campaigns", body: content, auth: .required)
    }

    /// The business's campaigns, newest first.
    public func campaigns(business: UUID, cursor: String? = nil) async throws -> Page<Campaign> {
        try await send(
            "GET", "v1/businesses/\(business.uuidString.lowercased())/campaigns",
            query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [],
            auth: .required)
    }

    public func campaign(_ id: UUID) async throws -> Campaign {
        try await send("GET", "v1/campaigns/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Changes a campaign; a change to a running one waits for review while the approved version runs.
    public func changeCampaign(_ id: UUID, _ change: CampaignChange) async throws -> Campaign {
        try await send("PATCH", "v1/campaigns/\(id.uuidString.lowercased())", body: change, auth: .required)
    }

    /// Sends a draft to an admin (`campaign_refused` with its blocking findings).
    public func submitCampaign(_ id: UUID) async throws -> Campaign {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/submit", auth: .required)
    }

    public func pauseCampaign(_ id: UUID) async throws -> Campaign {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/pause", auth: .required)
    }

    public func resumeCampaign(_ id: UUID) async throws -> Campaign {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/resume", auth: .required)
    }

    // MARK: The customer's control

    public func offerSettings() async throws -> OfferSettings {
        try await send("GET", "v1/me/offer-settings", auth: .required)
    }

    /// Changes the fields set in `change`.
    public func changeOfferSettings(_ change: OfferSettingsChange) async throws -> OfferSettings {
        try await send("PUT", "v1/me/offer-settings", body: change, auth: .required)
    }

    public func subscribe(business: UUID, ads: Bool = true, coupons: Bool = true) async throws -> OfferSubscription {
        try await send(
            "PUT", "v1/me/subscriptions/\(business.uuidString.lowercased())", body: SubscriptionRequest(ads: ads, coupons: coupons), auth: .required)
    }

    public func unsubscribe(business: UUID) async throws {
        try await sendVoid("DELETE", "v1/me/subscriptions/\(business.uuidString.lowercased())", auth: .required)
    }

    public func subscriptions(cursor: String? = nil) async throws -> Page<OfferSubscription> {
        try await send("GET", "v1/me/subscriptions", query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [], auth: .required)
    }
}
