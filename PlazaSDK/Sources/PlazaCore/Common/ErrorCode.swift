/// The stable, machine-readable `code` of every problem Plaza answers with.
///
/// Clients branch on these; the human `title` and `detail` may change, these may not.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    case validationFailed = "validation_failed"
    case malformedRequest = "malformed_request"
    case payloadTooLarge = "payload_too_large"
    case unauthorized
    case invalidCredentials = "invalid_credentials"
    case invalidToken = "invalid_token"
    case forbidden
    case emailNotVerified = "email_not_verified"
    /// An admin suspended the account; the problem's `detail` gives their reason.
    case accountSuspended = "account_suspended"
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    case conflict
    case idempotencyKeyReused = "idempotency_key_reused"
    case invalidCode = "invalid_code"
    /// Money would leave (a withdrawal, a payout account, a payment at or over the operator's amount): send the request
    /// again with `Plaza-Second-Factor`; the problem's `factors` lists the account's factors (`[]`: set one up first).
    case secondFactorRequired = "second_factor_required"
    case rateLimited = "rate_limited"
    case csrfFailed = "csrf_failed"
    case unsupportedMediaType = "unsupported_media_type"
    case locationSharingOff = "location_sharing_off"
    case notPresent = "not_present"
    case idempotencyKeyRequired = "idempotency_key_required"
    case insufficientFunds = "insufficient_funds"
    /// The charge is no longer in a state that allows this; the problem's `currentState` says which it is in.
    case stateConflict = "state_conflict"
    /// An approval named another amount, currency or business than the charge has.
    case approvalMismatch = "approval_mismatch"
    case chargingBlocked = "charging_blocked"
    case tooManyPendingCharges = "too_many_pending_charges"
    /// A top-up or withdrawal past a limit the operator set; the problem's `limit` names it, `resetsAt` says when it frees up.
    case limitExceeded = "limit_exceeded"
    /// A withdrawal before the user connected a payout account with the processor (`/v1/me/payout-account`).
    case payoutAccountRequired = "payout_account_required"
    /// The card processor did not answer or refused the call; nothing was charged or moved.
    case gatewayError = "gateway_error"
    /// A merchant an admin has not approved yet (or refused) tried to charge or advertise.
    case merchantNotApproved = "merchant_not_approved"
    /// Another admin is reviewing this item (the problem's `detail` says who and until when).
    case reviewClaimed = "review_claimed"
    /// The review item was decided already.
    case alreadyDecided = "already_decided"
    /// A campaign with a `block` finding of the policy lint was not submitted (`findings` lists them).
    case campaignRefused = "campaign_refused"
    /// No coupon of this offer is left to claim (its total, or the customer's own share, is taken).
    case offerExhausted = "offer_exhausted"
    /// The coupon does not apply: unknown, used, expired, someone else's, another business's, or under its minimum spend.
    case invalidCoupon = "invalid_coupon"
    /// The marketplace is for verified students: prove a campus address first (`POST /v1/me/campus-email`).
    case campusRequired = "campus_required"
    /// The marketplace's user agreement is not signed (or a newer version is in force).
    case agreementRequired = "agreement_required"
    /// An upheld report suspended the user from the marketplace; they may read the decision and appeal it.
    case marketSuspended = "market_suspended"
    /// The upload is not a readable picture of the type it says it is (damaged, truncated, or another format).
    case invalidImage = "invalid_image"
    /// A picture whose header claims more pixels than Plaza decodes (`PLAZA_MEDIA_MAX_PIXELS`, or over 12,000 on a
    /// side), decided before decoding; or one too costly to read within the time a decode may take.
    case imageTooLarge = "image_too_large"
    /// An address the server would call for the user (a Web Push endpoint) that is not on a known service, not https,
    /// or names a private or special address.
    case endpointNotAllowed = "endpoint_not_allowed"
    /// The request's body stopped arriving before it was complete (`PLAZA_BODY_TIMEOUT`).
    case requestTimeout = "request_timeout"
    /// One of the two people blocked the other: nothing passes between them.
    case blocked
    /// A card design (or a template's own text) has a preflight finding of severity `error`: it would not print well.
    case preflightFailed = "preflight_failed"
    /// A bid whose maximum is below the least the auction takes now.
    case bidTooLow = "bid_too_low"
    /// An amount, price or quantity above Plaza's bound, or a total it would compute past 100,000,000 minor units.
    case amountTooLarge = "amount_too_large"
    case internalError = "internal_error"
    /// The database, a card processor or a pool of workers cannot serve the request now (503, with `Retry-After`).
    case unavailable
    /// The disk under the database is full (507, with `Retry-After`): nothing was written.
    case insufficientStorage = "insufficient_storage"
}
