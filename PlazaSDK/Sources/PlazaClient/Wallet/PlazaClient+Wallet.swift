import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Balances and funding

    /// The caller's balances, one per currency.
    public func wallet() async throws -> Wallet {
        try await send("GET", "v1/wallet", auth: .required)
    }

    /// Starts a top-up from a card; it is `pending` until the processor answers (watch `top_up.updated` or poll `topUp(_:)`).
    /// Where the server's processor takes cards on its own page (Stripe), leave `card` out and open the answer's
    /// `checkoutUrl` (in `ASWebAuthenticationSession` or `SFSafariViewController`): card numbers never pass through the app.
    public func topUp(_ request: TopUpRequest, idempotencyKey: String? = nil) async throws -> TopUp {
        try await sendMoney("POST", "v1/wallet/top-ups", body: request, idempotencyKey: idempotencyKey)
    }

    public func topUp(_ id: UUID) async throws -> TopUp {
        try await send("GET", "v1/wallet/top-ups/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Sends money to the bank account on file; it leaves the balance at once.
    /// `secondFactor`: the code the user typed after `PlazaClientError.secondFactorRequired` (withdrawals always ask).
    public func withdraw(
        _ request: WithdrawalRequest,
        idempotencyKey: String? = nil,
        secondFactor: String? = nil
    ) async throws -> Withdrawal {
        try await sendMoney(
            "POST",
            "v1/wallet/withdrawals",
            body: request,
            idempotencyKey: idempotencyKey,
            secondFactor: secondFactor
        )
    }

    public func withdrawal(_ id: UUID) async throws -> Withdrawal {
        try await send("GET", "v1/wallet/withdrawals/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Where withdrawals go: `ready`, `notNeeded`, or (`none`, `incomplete`) a bank account still to connect.
    public func payoutAccount() async throws -> PayoutAccount {
        try await send("GET", "v1/me/payout-account", auth: .required)
    }

    /// The processor's page where the user connects the bank account their withdrawals go to; open it in a browser.
    /// `secondFactor`: the code the user typed after `PlazaClientError.secondFactorRequired` (this always asks).
    public func startPayoutOnboarding(secondFactor: String? = nil) async throws -> PayoutOnboarding {
        try await send("POST", "v1/me/payout-account/onboarding", auth: .required, secondFactor: secondFactor)
    }

    // MARK: Transfers and history

    /// Sends money to another user (by username), at once and without fees.
    /// `secondFactor`: the code the user typed after `PlazaClientError.secondFactorRequired` (large payments ask).
    public func transfer(
        _ request: TransferRequest,
        idempotencyKey: String? = nil,
        secondFactor: String? = nil
    ) async throws -> Transfer {
        try await sendMoney(
            "POST",
            "v1/transfers",
            body: request,
            idempotencyKey: idempotencyKey,
            secondFactor: secondFactor
        )
    }

    /// The caller's history (or a business's, for its people). Without `limit`, `cursor` or dates: the past week or the
    /// last 10 entries, whichever is fewer; pass `nextCursor` back for older ones.
    public func activity(
        business: UUID? = nil,
        kinds: [ActivityKind] = [],
        counterpart: String? = nil,
        from: Date? = nil,
        until: Date? = nil,
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<ActivityEntry> {
        try await send(
            "GET",
            "v1/activity",
            query: Self.query([
                "businessId": business?.uuidString.lowercased(),
                "kind": kinds.isEmpty ? nil : kinds.map(\.rawValue).joined(separator: ","),
                "counterpart": counterpart, "from": from.map(RFC3339.format), "until": until.map(RFC3339.format),
                "limit": limit.map(String.init),
                "cursor": cursor,
            ]),
            auth: .required
        )
    }

    // MARK: Paying at the counter

    /// A two-minute, single-use code (and QR payload) to show at the counter instead of sharing a location.
    public func payCode() async throws -> PayCode {
        try await send("POST", "v1/me/pay-codes", auth: .required)
    }

    /// The caller's charges as a customer, newest first (`[.pending]` for those waiting for an answer).
    public func myCharges(
        status: [ChargeStatus] = [],
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<Charge> {
        try await send("GET", "v1/me/charges", query: Self.chargeQuery(status, limit, cursor), auth: .required)
    }

    /// Asks a person (`carla`, `@carla` or `$carla`) to pay you. They answer it as a charge (`approve`, `decline`);
    /// you can `cancel` it while it waits. Paid, it shows in both histories as a payment between you.
    public func requestPayment(_ request: CreatePaymentRequest, idempotencyKey: String? = nil) async throws -> Charge {
        try await sendMoney("POST", "v1/payment-requests", body: request, idempotencyKey: idempotencyKey)
    }

    /// The payment requests you sent, newest first.
    public func sentPaymentRequests(
        status: [ChargeStatus] = [],
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<Charge> {
        try await send("GET", "v1/me/payment-requests", query: Self.chargeQuery(status, limit, cursor), auth: .required)
    }

    /// The people you last paid or were paid by, most recent first: a payment screen's "recent" row.
    public func contacts() async throws -> [Person] {
        let page: Page<Person> = try await send("GET", "v1/me/contacts", auth: .required)
        return page.items
    }

    /// People a payment could go to for what was typed (`car`, `@car`): those you paid or were paid by whose username or
    /// name starts so, and anyone by their exact username; a pay screen's type-ahead.
    public func suggestPeople(_ typed: String) async throws -> [Person] {
        let page: Page<Person> = try await send(
            "GET",
            "v1/people/suggest",
            query: [URLQueryItem(name: "q", value: typed)],
            auth: .required
        )
        return page.items
    }

    public func charge(_ id: UUID) async throws -> Charge {
        try await send("GET", "v1/charges/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Pays `charge` exactly as it was shown; the server refuses if anything differs.
    /// `secondFactor`: the code the user typed after `PlazaClientError.secondFactorRequired` (large payments ask).
    public func approve(
        _ charge: Charge,
        idempotencyKey: String? = nil,
        secondFactor: String? = nil
    ) async throws
        -> Charge
    {
        // A person's payment request names no business: its `business` is the person who asked.
        let approval = ApproveChargeRequest(
            amount: charge.amount,
            currency: charge.currency,
            businessId: charge.business.id
        )
        return try await sendMoney(
            "POST",
            "v1/charges/\(charge.id.uuidString.lowercased())/approve",
            body: approval,
            idempotencyKey: idempotencyKey,
            secondFactor: secondFactor
        )
    }

    public func decline(_ charge: UUID) async throws -> Charge {
        try await send("POST", "v1/charges/\(charge.uuidString.lowercased())/decline", auth: .required)
    }

    public func receipt(_ charge: UUID) async throws -> Receipt {
        try await send("GET", "v1/charges/\(charge.uuidString.lowercased())/receipt", auth: .required)
    }

    /// The receipt as a PDF to save or share (the same lines, in the account's language).
    public func receiptPDF(_ charge: UUID) async throws -> Data {
        try await sendData(
            "GET",
            "v1/charges/\(charge.uuidString.lowercased())/receipt",
            auth: .required,
            accept: "application/pdf"
        )
    }

    /// Refuses (or again accepts) charges from a business.
    public func setCharging(blocked: Bool, business: UUID) async throws {
        try await sendVoid(
            blocked ? "PUT" : "DELETE",
            "v1/me/charge-blocks/\(business.uuidString.lowercased())",
            auth: .required
        )
    }

    public func chargeBlocks() async throws -> [ChargeBlock] {
        let page: Page<ChargeBlock> = try await send("GET", "v1/me/charge-blocks", auth: .required)
        return page.items
    }

    // MARK: Merchants

    /// Asks a customer at the counter to pay (present in the shop, or identified by their pay code).
    public func createCharge(_ request: CreateChargeRequest, idempotencyKey: String? = nil) async throws -> Charge {
        try await sendMoney("POST", "v1/charges", body: request, idempotencyKey: idempotencyKey)
    }

    public func cancel(_ charge: UUID) async throws -> Charge {
        try await send("POST", "v1/charges/\(charge.uuidString.lowercased())/cancel", auth: .required)
    }

    /// Gives back part or all of what is left of an approved charge.
    public func refund(_ charge: UUID, amount: Int64, idempotencyKey: String? = nil) async throws -> Charge {
        try await sendMoney(
            "POST",
            "v1/charges/\(charge.uuidString.lowercased())/refunds",
            body: RefundRequest(amount: amount),
            idempotencyKey: idempotencyKey
        )
    }

    public func charges(
        of business: UUID,
        status: [ChargeStatus] = [],
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<Charge> {
        try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/charges",
            query: Self.chargeQuery(status, limit, cursor),
            auth: .required
        )
    }

    public func dailyTotals(of business: UUID, days: Int? = nil) async throws -> [DailyTotal] {
        let page: Page<DailyTotal> = try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/daily-totals",
            query: Self.query(["days": days.map(String.init)]),
            auth: .required
        )
        return page.items
    }

    /// Owners: the business's balances.
    public func businessWallet(_ business: UUID) async throws -> Wallet {
        try await send("GET", "v1/businesses/\(business.uuidString.lowercased())/wallet", auth: .required)
    }

    // MARK: Plumbing

    /// How often a money call is sent before its error is passed on (the same key every time).
    static let moneyAttempts = 4

    /// A POST that moves money: one idempotency key (the caller's, or a new UUID) for every attempt, retried when the
    /// answer may not have arrived (offline, 5xx) or the first attempt is still running (409 `conflict`), so that a
    /// flaky network never pays twice. Pass your own key, stored with the intent, to survive an app restart too.
    func sendMoney<Response: Decodable>(
        _ method: String,
        _ path: String,
        body: (some Encodable)? = Optional<Acknowledgement>.none,
        idempotencyKey: String?,
        secondFactor: String? = nil
    ) async throws -> Response {
        let key = idempotencyKey ?? UUID().uuidString
        var delay: UInt64 = 200_000_000
        for attempt in 1...Self.moneyAttempts {
            do {
                return try await send(
                    method,
                    path,
                    body: body,
                    auth: .required,
                    idempotencyKey: key,
                    secondFactor: secondFactor
                )
            } catch let error as PlazaClientError where attempt < Self.moneyAttempts && Self.isWorthRetrying(error) {
                try await Task.sleep(nanoseconds: delay)
                delay *= 2
            }
        }
        return try await send(
            method,
            path,
            body: body,
            auth: .required,
            idempotencyKey: key,
            secondFactor: secondFactor
        )
    }

    static func isWorthRetrying(_ error: PlazaClientError) -> Bool {
        switch error {
        case .transport: true
        case .unreadableResponse(let status): status >= 500 || status == 0
        case .problem(let problem): problem.status >= 500 || problem.code == .conflict
        case .notSignedIn, .secondFactorRequired: false
        }
    }

    static func chargeQuery(_ status: [ChargeStatus], _ limit: Int?, _ cursor: String?) -> [URLQueryItem] {
        query([
            "status": status.isEmpty ? nil : status.map(\.rawValue).joined(separator: ","),
            "limit": limit.map(String.init), "cursor": cursor,
        ])
    }
}
