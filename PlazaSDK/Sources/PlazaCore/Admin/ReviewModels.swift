import Foundation

/// What the review queue holds; later issues add kinds (campaigns, reports, templates).
public enum ReviewKind: String, Codable, Sendable, CaseIterable, Hashable {
    /// A new merchant, before their businesses are public and they can charge or advertise.
    case merchant
    /// A business's ad or coupon campaign (or a change to an approved one), before it runs.
    case campaign
    /// A marketplace report about a listing, a student or a conversation: upheld with an action, or dismissed.
    case report
    /// A student's one appeal against an upheld report: granted (the action is undone) or denied.
    case appeal
    /// A designer's card template (or a change to one), before it enters the card shop's catalogue.
    case template
    /// A customer's dispute of a paid charge that they asked Plaza to decide: upheld with a refund, or rejected.
    case dispute
    /// Customers' reports of a running campaign's offer (issue 40): one open item per campaign gathers them; upheld by
    /// stopping the campaign, or dismissed (it keeps running).
    case offerReport = "offer_report"
}

/// What approving an item does besides approving it, when its kind offers a choice (reports, appeals). Every such
/// decision carries a statement of reasons that the person concerned reads.
public enum ReviewAction: String, Codable, Sendable, CaseIterable, Hashable {
    /// Takes the reported listing off the marketplace.
    case removeListing = "remove_listing"
    /// A warning the person reads; nothing else changes.
    case warn
    /// Suspends the person from the marketplace: their listings leave the feed and they can neither buy nor sell; they
    /// can still sign in, read the statement of reasons and appeal.
    case suspend
    /// An appeal granted: the removed listing is back.
    case restoreListing = "restore_listing"
    /// An appeal granted: the suspension is lifted.
    case reinstate
    /// An appeal granted: the warning is withdrawn.
    case withdrawWarning = "withdraw_warning"
    /// A dispute upheld: what is left of the charge goes back to the customer.
    case refund
    /// An offer report upheld: the campaign ends at once, with the statement its business reads.
    case stopCampaign = "stop_campaign"

    public var label: String {
        switch self {
        case .removeListing: "Remove the listing"
        case .warn: "Warn them"
        case .suspend: "Suspend them from the marketplace"
        case .restoreListing: "Put the listing back"
        case .reinstate: "Lift the marketplace suspension"
        case .withdrawWarning: "Withdraw the warning"
        case .refund: "Refund the customer"
        case .stopCampaign: "Stop the campaign"
        }
    }
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
    /// What approving may do (one must be chosen); empty: approving is all.
    public var actions: [ReviewAction]
    /// The action taken, once approved.
    public var action: ReviewAction?
    /// A merchant's item: who the owner is and whether their payouts can reach a bank (issue 39), read when shown.
    public var merchant: ReviewMerchant? = nil

    public init(
        id: UUID,
        kind: ReviewKind,
        subjectId: UUID,
        subject: String,
        findings: [String],
        diff: [ReviewChange] = [],
        state: ReviewState,
        createdAt: Date,
        claimedBy: String? = nil,
        claimedUntil: Date? = nil,
        decidedBy: String? = nil,
        decidedAt: Date? = nil,
        reason: String? = nil,
        actions: [ReviewAction] = [],
        action: ReviewAction? = nil
    ) {
        self.actions = actions
        self.action = action
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

/// `POST /v1/admin/review-queue/{id}/reject` (and, optionally, a note with an approval; for reports and appeals, the
/// statement of reasons and the chosen action).
public struct ReviewReason: Codable, Sendable, Hashable {
    public var reason: String
    public var action: ReviewAction?

    public init(reason: String, action: ReviewAction? = nil) {
        self.reason = reason
        self.action = action
    }
}

/// `POST /v1/admin/review-queue/{id}/approve`: nothing, or (reports and appeals) the action and the statement of reasons.
public struct ReviewApproval: Codable, Sendable, Hashable {
    public var reason: String?
    public var action: ReviewAction?

    public init(reason: String? = nil, action: ReviewAction? = nil) {
        self.reason = reason
        self.action = action
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
    /// What approving may do (the admin picks one).
    public var actions: [ReviewAction]
    /// The account a `suspend` or `reinstate` acts on.
    public var accountId: UUID?

    /// How a person is named as a subject: "Bruno Bäcker (@bruno)".
    public static func person(displayName: String, username: String) -> String {
        "\(displayName) (@\(username))"
    }

    public init(
        kind: ReviewKind,
        subjectId: UUID,
        subject: String,
        findings: [String],
        diff: [ReviewChange] = [],
        notify: [UUID] = [],
        actions: [ReviewAction] = [],
        accountId: UUID? = nil
    ) {
        self.actions = actions
        self.accountId = accountId
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
    public var action: ReviewAction?

    public init(kind: ReviewKind, subjectId: UUID, approved: Bool, reason: String?, action: ReviewAction? = nil) {
        self.action = action
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
}

extension ReviewKind {
    /// What the console calls it.
    public var label: String {
        switch self {
        case .merchant: "New merchant"
        case .campaign: "Campaign"
        case .report: "Report"
        case .appeal: "Appeal"
        case .template: "Card template"
        case .dispute: "Payment dispute"
        case .offerReport: "Offer report"
        }
    }

    /// The console's confirmation once an item is decided: what happened, and what follows for its subject.
    public func decidedNotice(_ item: ReviewItem) -> String {
        switch (self, item.state) {
        case (.merchant, .approved):
            "You approved \(item.subject). They were told; customers can find their businesses now."
        case (.merchant, _): "You rejected \(item.subject). They were told your reason."
        case (.campaign, .approved): "You approved \(item.subject). The business was told; it runs from its start."
        case (.campaign, _): "You rejected \(item.subject). The business was told your reason."
        case (.report, .approved):
            "You acted on the report about \(item.subject). They read your statement and may appeal once."
        case (.report, _): "You dismissed the report about \(item.subject). Whoever reported it was told."
        case (.appeal, .approved): "You granted the appeal of \(item.subject): the action is undone and they were told."
        case (.appeal, _): "You denied the appeal of \(item.subject). They read your reason."
        case (.template, .approved):
            "You approved \(item.subject). It is in the card shop's catalogue; the designer was told."
        case (.template, _): "You sent \(item.subject) back. The designer reads your reason."
        case (.dispute, .approved):
            "You upheld the dispute \(item.subject): the customer was refunded, and both sides read your statement."
        case (.dispute, _): "You rejected the dispute \(item.subject). Both sides read your reason."
        case (.offerReport, .approved):
            "You stopped \(item.subject). Its business reads your reason; whoever reported it was told."
        case (.offerReport, _):
            "You dismissed the reports about \(item.subject): it keeps running. Whoever reported it was told."
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
