import Foundation

/// What the review queue holds; later issues add kinds (campaigns, reports, templates).
public enum ReviewKind: String, Codable, Sendable, CaseIterable, Hashable {
    /// A new merchant, before their businesses are public and they can charge or advertise.
    case merchant
    /// A business's ad or coupon campaign (or a change to an approved one), before it runs.
    case campaign
}

/// One field of what an admin reviews, as it was last approved and as it would be now (`before` is `nil` for new content).
public struct ReviewChange: Codable, Sendable, Hashable {
    public var field: String
    public var before: String?
    public var after: String?

    public init(field: String, before: String?, after: String?) {
        self.field = field
        self.before = before
        self.after = after
    }
}

public enum ReviewState: String, Codable, Sendable, CaseIterable, Hashable {
    case open, approved, rejected
}

/// One item of `GET /v1/admin/review-queue`: what to decide, with what the admin should look at first.
public struct ReviewItem: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var kind: ReviewKind
    /// The account, campaign, ... the decision is about.
    public var subjectId: UUID
    /// Who or what it is, in words ("Bruno Bäcker (@bruno)").
    public var subject: String
    /// Sentences the admin reads before deciding.
    public var findings: [String]
    /// For a change to something approved before: what differs (empty otherwise).
    public var diff: [ReviewChange]
    public var state: ReviewState
    public var createdAt: Date
    /// The admin reviewing it now, and until when no other admin may decide it.
    public var claimedBy: String?
    public var claimedUntil: Date?
    public var decidedBy: String?
    public var decidedAt: Date?
    /// The reason given with a rejection (the person concerned reads it).
    public var reason: String?

    public init(
        id: UUID, kind: ReviewKind, subjectId: UUID, subject: String, findings: [String], diff: [ReviewChange] = [], state: ReviewState,
        createdAt: Date, claimedBy: String? = nil, claimedUntil: Date? = nil, decidedBy: String? = nil, decidedAt: Date? = nil, reason: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.subjectId = subjectId
        self.subject = subject
        self.findings = findings
        self.diff = diff
        self.state = state
        self.createdAt = createdAt
        self.claimedBy = claimedBy
        self.claimedUntil = claimedUntil
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
        self.reason = reason
    }
}

/// `POST /v1/admin/review-queue/{id}/reject` (and, optionally, a note with an approval).
public struct ReviewReason: Codable, Sendable, Hashable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// A domain asks for a review (published on the event bus; the admin domain files it in the same transaction). A
/// second request for a subject with an open item replaces its subject and findings.
public struct ReviewSubmission: Codable, Sendable, Hashable {
    public var kind: ReviewKind
    public var subjectId: UUID
    public var subject: String
    public var findings: [String]
    public var diff: [ReviewChange]
    /// Who is told of the decision (the subject itself when empty: a merchant).
    public var notify: [UUID]

    /// How a person is named as a subject: "Bruno Bäcker (@bruno)".
    public static func person(displayName: String, username: String) -> String {
        "\(displayName) (@\(username))"
    }

    public init(kind: ReviewKind, subjectId: UUID, subject: String, findings: [String], diff: [ReviewChange] = [], notify: [UUID] = []) {
        self.kind = kind
        self.subjectId = subjectId
        self.subject = subject
        self.findings = findings
        self.diff = diff
        self.notify = notify
    }
}

/// An admin decided (published on the event bus): the domain that owns the subject applies it in the same transaction.
public struct ReviewDecision: Codable, Sendable, Hashable {
    public var kind: ReviewKind
    public var subjectId: UUID
    public var approved: Bool
    public var reason: String?

    public init(kind: ReviewKind, subjectId: UUID, approved: Bool, reason: String?) {
        self.kind = kind
        self.subjectId = subjectId
        self.approved = approved
        self.reason = reason
    }
}

/// Where a merchant stands: until approved, their businesses are not public and they cannot charge or advertise.
public enum ApprovalState: String, Codable, Sendable, CaseIterable, Hashable {
    case pending, approved, rejected
}

/// `User.merchantApproval`: the state and, when refused, the admin's reason.
public struct MerchantApproval: Codable, Sendable, Hashable {
    public var state: ApprovalState
    public var reason: String?

    public init(state: ApprovalState, reason: String? = nil) {
        self.state = state
        self.reason = reason
    }
}

extension ReviewKind {
    /// How long an admin who opened an item holds it before another may decide it.
    public static let claimDuration: TimeInterval = 15 * 60

    /// What the people concerned are told of the decision on `item`.
    public func decisionAlert(_ item: ReviewItem, approved: Bool, reason: String?) -> (title: String, body: String, link: String) {
        switch self {
        case .merchant:
            approved
                ? ("Your business is approved", "Customers can find your business on Plaza now, and you can charge them.", "/places/mine")
                : ("Your business was not approved", "The reason given: \(reason ?? "")", "/")
        case .campaign:
            approved
                ? ("Your campaign is approved", "\(item.subject) runs from its start.", "/offers/campaigns/\(item.subjectId.uuidString.lowercased())")
                : (
                    "Your campaign was not approved", "\(item.subject): \(reason ?? "")",
                    "/offers/campaigns/\(item.subjectId.uuidString.lowercased())"
                )
        }
    }
}

extension ReviewKind {
    /// What the console calls it.
    public var label: String {
        switch self {
        case .merchant: "New merchant"
        case .campaign: "Campaign"
        }
    }

    /// The console's confirmation once an item is decided: what happened, and what follows for its subject.
    public func decidedNotice(_ item: ReviewItem) -> String {
        switch (self, item.state) {
        case (.merchant, .approved): "You approved \(item.subject). They were told; customers can find their businesses now."
        case (.merchant, _): "You rejected \(item.subject). They were told your reason."
        case (.campaign, .approved): "You approved \(item.subject). The business was told; it runs from its start."
        case (.campaign, _): "You rejected \(item.subject). The business was told your reason."
        }
    }
}

extension ReviewState {
    public var label: String {
        switch self {
        case .open: "Waiting"
        case .approved: "Approved"
        case .rejected: "Rejected"
        }
    }
}
