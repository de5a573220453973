import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore

/// Drives the wallet API as a client would: cards, transfers, charges, each money POST with its own key.
public struct WalletDriver: Sendable {
    public let client: any TestClientProtocol

    public init(_ client: any TestClientProtocol) {
        self.client = client
    }

    public static let goodCard = CardDetails(number: "4242 4242 4242 4242", expMonth: 12, expYear: 2034, cvc: "123")
    public static let declinedCard = CardDetails(number: "4000000000000002", expMonth: 12, expYear: 2034, cvc: "123")
    public static let insufficientCard = CardDetails(
        number: "4000000000009995",
        expMonth: 12,
        expYear: 2034,
        cvc: "123"
    )

    public static func keyed(_ key: String?) -> HTTPFields {
        var headers = HTTPFields()
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return headers
    }

    public func topUp(
        _ amount: Int64,
        card: CardDetails = goodCard,
        currency: String = "USD",
        key: String? = UUID().uuidString,
        token: String
    )
        async throws -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/wallet/top-ups",
            json: TopUpRequest(amount: amount, currency: currency, card: card),
            token: token,
            headers: Self.keyed(key)
        )
    }

    /// Tops up with the good card and waits (up to 10 s) for the processor's webhook to settle it.
    @discardableResult
    public func fund(_ amount: Int64, token: String) async throws -> TopUp {
        let response = try await topUp(amount, token: token)
        guard response.status == .created else {
            throw AccountsDriver.DriverError(description: "top-up: \(response.status) \(response.text)")
        }
        return try await settled(try response.decode(TopUp.self).id, token: token)
    }

    /// How long a top-up or withdrawal may stay pending: the processor's webhook is local, but a PostgreSQL suite
    /// under load (CI's, beside other work) once needed more than 30 s.
    static let settleWait = Duration.seconds(60)

    /// Polls the top-up until it leaves `pending`.
    public func settled(_ id: UUID, token: String) async throws -> TopUp {
        let deadline = ContinuousClock.now + Self.settleWait
        while ContinuousClock.now < deadline {
            let topUp = try await client.send(.get, "/v1/wallet/top-ups/\(id)", token: token).decode(TopUp.self)
            if topUp.status != .pending { return topUp }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw AccountsDriver.DriverError(description: "top-up \(id) still pending after \(Self.settleWait)")
    }

    /// Waits (up to `settleWait`) until the processor's webhook settled the withdrawal.
    public func withdrawalSettled(_ id: UUID, token: String) async throws -> Withdrawal {
        let deadline = ContinuousClock.now + Self.settleWait
        while ContinuousClock.now < deadline {
            let withdrawal = try await client.send(.get, "/v1/wallet/withdrawals/\(id)", token: token).decode(
                Withdrawal.self
            )
            if withdrawal.status != .pending { return withdrawal }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw AccountsDriver.DriverError(description: "withdrawal \(id) still pending after \(Self.settleWait)")
    }

    public func transfer(
        to username: String,
        _ amount: Int64,
        note: String? = nil,
        key: String? = UUID().uuidString,
        token: String
    ) async throws
        -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/transfers",
            json: TransferRequest(to: username, amount: amount, currency: "USD", note: note),
            token: token,
            headers: Self.keyed(key)
        )
    }

    /// The available balance in USD.
    public func balance(token: String) async throws -> Int64 {
        let wallet = try await client.send(.get, "/v1/wallet", token: token).decode(Wallet.self)
        return wallet.balances.first { $0.currency == "USD" }?.available ?? 0
    }

    public func charge(
        business: UUID,
        customer: String? = nil,
        payCode: String? = nil,
        _ amount: Int64?,
        items: [ChargeItem]? = nil,
        lines: [ChargeLine]? = nil,
        tip: Int64? = nil,
        coupon: String? = nil,
        key: String? = UUID().uuidString,
        token: String
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/charges",
            json: CreateChargeRequest(
                businessId: business,
                customer: customer,
                payCode: payCode,
                amount: amount,
                currency: "USD",
                items: lines ?? items?.map(ChargeLine.init),
                coupon: coupon,
                tip: tip
            ),
            token: token,
            headers: Self.keyed(key)
        )
    }

    /// Approves exactly what `charge` says.
    public func approve(_ charge: Charge, key: String? = UUID().uuidString, token: String) async throws -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/charges/\(charge.id)/approve",
            json: ApproveChargeRequest(
                amount: charge.amount,
                currency: charge.currency,
                businessId: charge.business.id ?? UUID()
            ),
            token: token,
            headers: Self.keyed(key)
        )
    }

    public func end(_ charge: Charge, _ action: String, token: String) async throws -> TestResponse {
        try await client.send(.post, "/v1/charges/\(charge.id)/\(action)", token: token)
    }

    public func refund(
        _ charge: Charge,
        _ amount: Int64,
        reason: String? = nil,
        key: String? = UUID().uuidString,
        token: String
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/charges/\(charge.id)/refunds",
            json: RefundRequest(amount: amount, reason: reason),
            token: token,
            headers: Self.keyed(key)
        )
    }

    public func activity(_ query: String = "", token: String) async throws -> Page<ActivityEntry> {
        let response = try await client.send(.get, "/v1/activity\(query)", token: token)
        guard response.status == .ok else {
            throw AccountsDriver.DriverError(description: "activity: \(response.status) \(response.text)")
        }
        return try response.decode(Page<ActivityEntry>.self)
    }
}
