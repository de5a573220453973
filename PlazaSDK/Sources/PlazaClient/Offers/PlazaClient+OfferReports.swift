import Foundation
import PlazaCore

/// Offers a customer reports and an admin stops (issue 40).
extension PlazaClient {
    /// Reports an offer that reached me; reporting it again answers the report I filed (one per person and offer).
    public func reportOffer(_ id: UUID, _ request: OfferReportRequest) async throws -> OfferReport {
        try await send("POST", "v1/offers/\(id.uuidString.lowercased())/report", body: request, auth: .required)
    }

    /// Admins: stops a running campaign with the reason its business reads (`campaign.stop` in the audit log).
    public func stopCampaign(_ id: UUID, reason: String) async throws -> Campaign {
        try await send(
            "POST",
            "v1/admin/campaigns/\(id.uuidString.lowercased())/stop",
            body: CampaignStopRequest(reason: reason),
            auth: .required
        )
    }
}
