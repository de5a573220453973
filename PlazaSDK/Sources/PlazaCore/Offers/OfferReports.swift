import Foundation

/// Why a customer reports an offer (issue 40): Plaza's team reads it beside the offer.
public enum OfferReportReason: String, Codable, Sendable, CaseIterable, Hashable {
    case misleading, offensive, scam, discriminatory, other

    public var label: String {
        switch self {
        case .misleading: "Misleading: it promises what the shop does not give"
        case .offensive: "Offensive words or pictures"
        case .scam: "A scam"
        case .discriminatory: "Discriminatory"
        case .other: "Something else (say what)"
        }
    }
}

/// Where a report stands: `open` until an admin decides the campaign's review item, then `upheld` (the campaign was
/// stopped) or `dismissed` (it keeps running).
public enum OfferReportState: String, Codable, Sendable, CaseIterable, Hashable {
    case open, upheld, dismissed
}

/// `POST /v1/offers/{id}/report`.
public struct OfferReportRequest: Codable, Sendable, Hashable {
    public var reason: OfferReportReason
    /// At most 1,000 characters; needed with `other`.
    public var details: String?

    public init(reason: OfferReportReason, details: String? = nil) {
        self.reason = reason
        self.details = details
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reason = try container.decode(OfferReportReason.self, forKey: .reason)
        details = try container.decodeUnlessNull(String.self, forKey: .details)
    }
}

/// A customer's report of an offer that reached them (one per person and offer).
public struct OfferReport: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var offerId: UUID
    public var reason: OfferReportReason
    public var state: OfferReportState
    public var createdAt: Date

    public init(id: UUID, offerId: UUID, reason: OfferReportReason, state: OfferReportState, createdAt: Date) {
        self.id = id
        self.offerId = offerId
        self.reason = reason
        self.state = state
        self.createdAt = createdAt
    }
}

/// `POST /v1/admin/campaigns/{id}/stop`: the reason the business reads (3 to 500 characters).
public struct CampaignStopRequest: Codable, Sendable, Hashable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

extension OfferRules {
    /// The longest `details` of a report.
    public static let reportDetailsLimit = 1_000

    /// What is wrong with a report's details: too long, or missing where the reason is `other`.
    public static func reportProblems(_ request: OfferReportRequest) -> [FieldError] {
        let details = request.details?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if details.count > reportDetailsLimit {
            return [FieldError(field: "details", message: "Say it in at most \(reportDetailsLimit) characters.")]
        }
        if request.reason == .other, details.isEmpty {
            return [FieldError(field: "details", message: "Say what is wrong with this offer.")]
        }
        return []
    }

    /// How the admin reads a report among the review item's findings.
    public static func reportFinding(_ reason: OfferReportReason, details: String?, at date: Date) -> String {
        let said = details.flatMap { $0.isEmpty ? nil : " — “\($0)”" } ?? ""
        return "Reported as \(reason.rawValue) on \(RFC3339.format(date))\(said)"
    }
}
