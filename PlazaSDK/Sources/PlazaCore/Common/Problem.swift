import Foundation

/// One field at fault in a request, as `errors[]` of a validation problem carries it.
public struct FieldError: Codable, Sendable, Hashable {
    /// The JSON field name (camelCase), or a dotted path such as `points.3.latitude`.
    public var field: String
    /// What is wrong, in words a user can act on.
    public var message: String
    /// The value passes one of Plaza's bounds on amounts (`AmountBounds`): the problem's code is `amount_too_large`.
    /// Not part of the JSON (the code says it).
    public var aboveBound = false

    public init(field: String, message: String, aboveBound: Bool = false) {
        self.field = field
        self.message = message
        self.aboveBound = aboveBound
    }

    private enum CodingKeys: String, CodingKey {
        case field, message
    }
}

/// An RFC 9457 problem document (`application/problem+json`) with Plaza's stable `code`.
public struct Problem: Codable, Sendable, Hashable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var code: ErrorCode
    public var errors: [FieldError]?
    /// With `state_conflict`: the state the object is in now (a charge's `approved`, `expired`, ...).
    public var currentState: String?
    /// With `limit_exceeded`: which limit (`top_up_transaction`, `top_up_day`, `top_up_month`, `withdrawal_day`, ...).
    public var limit: String?
    /// With `limit_exceeded`: when the limit frees up again (absent for a per-transaction limit).
    public var resetsAt: Date?
    /// With `campaign_refused`: every finding of the policy lint, the blocking ones among them.
    public var findings: [CampaignFinding]?
    /// With `second_factor_required`: the account's confirmed second factors (`[]`: it has none to answer with).
    public var factors: [SecondFactorRef]?

    public init(
        type: String = "about:blank",
        title: String,
        status: Int,
        detail: String? = nil,
        code: ErrorCode,
        errors: [FieldError]? = nil,
        currentState: String? = nil,
        limit: String? = nil,
        resetsAt: Date? = nil,
        findings: [CampaignFinding]? = nil,
        factors: [SecondFactorRef]? = nil
    ) {
        self.findings = findings
        self.factors = factors
        self.limit = limit
        self.resetsAt = resetsAt
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.errors = errors
        self.currentState = currentState
    }
}
