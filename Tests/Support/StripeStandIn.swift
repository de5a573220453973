import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import PlazaServer
import Synchronization

/// A local stand-in for Stripe that tests start themselves: the subset of Stripe's HTTP API Plaza calls (Checkout
/// Sessions, Connect accounts, account links, transfers), with Stripe's authentication, form encoding, error
/// bodies and idempotency keys; the hosted payment and onboarding pages a customer clicks through; and webhooks
/// signed with the `Stripe-Signature` scheme. Test cards decide outcomes as on Stripe: 4242 4242 4242 4242 pays,
/// 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds.
public final class StripeStandIn: Sendable {
    public static let secretKey = "sk_test_standin_4eC39HqLyjWDarjtT1zdp7dc"
    public static let webhookSecret = "whsec_standin_7dc4eC39HqLyjWDarjtT1zdp"

    /// A request Plaza made, as the stand-in saw it.
    public struct Call: Sendable {
        public var method: String
        public var path: String
        public var form: [String: String]
        public var idempotencyKey: String?
        public var stripeVersion: String?
    }

    /// A webhook the stand-in sent and how Plaza answered.
    public struct Delivery: Sendable {
        public var type: String
        public var status: Int
    }

    struct Session {
        var id: String
        var amount: Int64
        var currency: String
        var reference: String
        var successURL: String
        var cancelURL: String
        var metadata: [String: String]
        var expiresAt: Int
        var status = "open"
        var paymentStatus = "unpaid"
        var paymentIntent: String?
    }

    struct Account {
        var id: String
        var email: String
        var metadata: [String: String]
        var ready = false
        var returnURL = ""
    }

    struct State {
        var webhookURL: String?
        var sessions: [String: Session] = [:]
        var accounts: [String: Account] = [:]
        /// What Stripe holds for the platform, per currency: paid sessions in, transfers out.
        var balance: [String: Int64] = [:]
        /// Idempotency key → (request fingerprint, status, answer).
        var replays: [String: (String, Int, Data)] = [:]
        var calls: [Call] = []
        var deliveries: [Delivery] = []
        /// Path → answers to give before behaving (a 500 to make Plaza retry).
        var failures: [String: [Int]] = [:]
    }

    let state = Mutex(State())
    let task: Task<Void, any Error>
    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// What Plaza is configured with to talk to this stand-in.
    public var settings: StripeSettings {
        StripeSettings(secretKey: Self.secretKey, webhookSecret: Self.webhookSecret, apiURL: baseURL)
    }

    public var calls: [Call] { state.withLock { $0.calls } }
    public var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// Starts listening on a free loopback port.
    public static func start() async throws -> StripeStandIn {
        let box = Mutex<StripeStandIn?>(nil)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard let standIn = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let body = try await request.body.collect(upTo: 1 << 20)
            return try await standIn.serve(request, body: String(buffer: body))
        }
        let server = try await LoopbackServer.start(name: "stripe-stand-in", responder: responder)
        let standIn = StripeStandIn(task: server.task, port: server.port)
        box.withLock { $0 = standIn }
        return standIn
    }

    init(task: Task<Void, any Error>, port: Int) {
        self.task = task
        self.port = port
    }

    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// Where webhooks go: the endpoint an operator enters in Stripe's dashboard (`nil`: an endpoint set up wrong).
    public func sendWebhooks(to url: String?) {
        state.withLock { $0.webhookURL = url }
    }

    /// The next `answers.count` calls to `path` get these statuses (a 500 makes Plaza retry with the same key).
    public func fail(_ path: String, with answers: [Int]) {
        state.withLock { $0.failures[path] = answers }
    }

    public func session(_ id: String) -> (status: String, paymentStatus: String)? {
        state.withLock { $0.sessions[id].map { ($0.status, $0.paymentStatus) } }
    }

    /// What Stripe holds available for the platform (card money becomes available days after the payment).
    public func setPlatformBalance(_ currency: String, _ amount: Int64) {
        state.withLock { $0.balance[currency.lowercased()] = amount }
    }

    public func platformBalance(_ currency: String) -> Int64 {
        state.withLock { $0.balance[currency.lowercased()] ?? 0 }
    }

    /// Lets a Checkout Session run out, as Stripe does at `expires_at`.
    public func expire(_ id: String) async throws {
        let session = try state.withLock { state -> Session in
            guard var session = state.sessions[id], session.status == "open" else {
                throw StandInError(message: "no open session \(id)")
            }
            session.status = "expired"
            state.sessions[id] = session
            return session
        }
        try await send("checkout.session.expired", object: json(session))
    }

    // MARK: Serving

    func serve(_ request: Request, body: String) async throws -> Response {
        let path = request.uri.path
        let form = Self.parseForm(request.method == .get ? (request.uri.query ?? "") : body)
        let parts = path.split(separator: "/").map(String.init)
        if parts.first == "pay", parts.count == 2 { return try await checkoutPage(parts[1], request.method, form) }
        if parts.first == "connect", parts.count == 2 { return try await onboardingPage(parts[1], request.method) }

        let key = request.headers[HTTPField.Name("Idempotency-Key")!]
        state.withLock {
            $0.calls.append(
                Call(
                    method: request.method.rawValue,
                    path: path,
                    form: form,
                    idempotencyKey: key,
                    stripeVersion: request.headers[HTTPField.Name("Stripe-Version")!]
                )
            )
        }
        guard request.headers[.authorization] == "Bearer \(Self.secretKey)" else {
            return Self.error(401, type: "invalid_request_error", code: nil, "Invalid API Key provided.").response
        }
        if let status = state.withLock({ state -> Int? in
            guard var answers = state.failures[path], !answers.isEmpty else { return nil }
            let first = answers.removeFirst()
            state.failures[path] = answers
            return first
        }) {
            return Self.error(status, type: "api_error", code: nil, "Something went wrong on Stripe's end.").response
        }
        // Stripe's idempotency: the same key answers the same, a key reused with other parameters is refused.
        let fingerprint = "\(request.method) \(path) \(form.sorted { $0.key < $1.key })"
        if request.method == .post, let key, let replay = state.withLock({ $0.replays[key] }) {
            guard replay.0 == fingerprint else {
                return Self.error(
                    400,
                    type: "idempotency_error",
                    code: nil,
                    "Keys for idempotent requests can only be used with the same parameters."
                )
                .response
            }
            return Reply(status: replay.1, body: replay.2).response
        }
        let reply = try await api(request.method, parts, form)
        if request.method == .post, let key {
            state.withLock { $0.replays[key] = (fingerprint, reply.status, reply.body) }
        }
        return reply.response
    }

    /// An API answer: JSON with a status.
    struct Reply {
        var status: Int
        var body: Data
        var response: Response {
            Response(
                status: .init(code: status),
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
    }

    private func api(_ method: HTTPRequest.Method, _ parts: [String], _ form: [String: String]) async throws -> Reply {
        switch (method, parts.dropFirst().joined(separator: "/")) {
        case (.post, "checkout/sessions"): return try createSession(form)
        case (.get, let path) where path.hasPrefix("checkout/sessions/") && parts.count == 4:
            return try state.withLock { state in
                guard let session = state.sessions[parts[3]] else { return Self.missing(parts[3]) }
                return try Self.answer(json(session))
            }
        case (.post, let path) where path.hasPrefix("checkout/sessions/") && parts.last == "expire" && parts.count == 5:
            let id = parts[3]
            guard let session = state.withLock({ $0.sessions[id] }) else { return Self.missing(id) }
            guard session.status == "open" else {
                return Self.error(
                    400,
                    type: "invalid_request_error",
                    code: nil,
                    #"Only Checkout Sessions with a status in ["open"] can be expired."#
                )
            }
            try await expire(id)
            return try Self.answer(json(state.withLock { $0.sessions[id]! }))
        case (.post, "accounts"):
            guard form["type"] == "express", let email = form["email"] else {
                return Self.error(
                    400,
                    type: "invalid_request_error",
                    code: "parameter_missing",
                    "Missing type or email."
                )
            }
            let account = Account(id: Self.id("acct"), email: email, metadata: Self.metadata(form, "metadata"))
            state.withLock { $0.accounts[account.id] = account }
            return try Self.answer(json(account))
        case (.get, let path) where path.hasPrefix("accounts/") && parts.count == 3:
            return try state.withLock { state in
                guard let account = state.accounts[parts[2]] else { return Self.missing(parts[2]) }
                return try Self.answer(json(account))
            }
        case (.post, "account_links"):
            guard let id = form["account"], form["type"] == "account_onboarding", let back = form["return_url"],
                form["refresh_url"] != nil
            else {
                return Self.error(
                    400,
                    type: "invalid_request_error",
                    code: "parameter_missing",
                    "Missing account, type, return_url or refresh_url."
                )
            }
            let known = state.withLock { state -> Bool in
                guard state.accounts[id] != nil else { return false }
                state.accounts[id]?.returnURL = back
                return true
            }
            guard known else { return Self.missing(id) }
            return try Self.answer([
                "object": "account_link", "url": "\(baseURL)/connect/\(id)",
                "expires_at": Int(Date().timeIntervalSince1970) + 300,
            ])
        case (.post, "transfers"): return try await transfer(form)
        default:
            return Self.error(
                404,
                type: "invalid_request_error",
                code: "resource_missing",
                "Unrecognized request URL (\(method): /\(parts.joined(separator: "/")))."
            )
        }
    }

    private func createSession(_ form: [String: String]) throws -> Reply {
        guard form["mode"] == "payment", let success = form["success_url"], let cancel = form["cancel_url"],
            let currency = form["line_items[0][price_data][currency]"], currency == currency.lowercased(),
            let amount = form["line_items[0][price_data][unit_amount]"].flatMap({ Int64($0) }), amount > 0,
            form["line_items[0][quantity]"] == "1", let reference = form["client_reference_id"]
        else {
            return Self.error(
                400,
                type: "invalid_request_error",
                code: "parameter_invalid",
                "The session's parameters are incomplete."
            )
        }
        let now = Int(Date().timeIntervalSince1970)
        let expires = form["expires_at"].flatMap { Int($0) } ?? now + 86_400
        // Stripe: "expires_at must be between 30 minutes and 24 hours after the Checkout Session is created".
        guard expires >= now + 1_800, expires <= now + 86_400 else {
            return Self.error(
                400,
                type: "invalid_request_error",
                code: "parameter_invalid_integer",
                "expires_at is out of range."
            )
        }
        let session = Session(
            id: Self.id("cs_test"),
            amount: amount,
            currency: currency,
            reference: reference,
            successURL: success,
            cancelURL: cancel,
            metadata: Self.metadata(form, "payment_intent_data[metadata]"),
            expiresAt: expires
        )
        state.withLock { $0.sessions[session.id] = session }
        return try Self.answer(json(session))
    }

    private func transfer(_ form: [String: String]) async throws -> Reply {
        guard let amount = form["amount"].flatMap({ Int64($0) }), amount > 0, let currency = form["currency"],
            let destination = form["destination"]
        else {
            return Self.error(
                400,
                type: "invalid_request_error",
                code: "parameter_missing",
                "Missing amount, currency or destination."
            )
        }
        enum Outcome { case done, unknownAccount, notReady, insufficient }
        let id = Self.id("tr")
        let outcome = state.withLock { state -> Outcome in
            guard let account = state.accounts[destination] else { return .unknownAccount }
            guard account.ready else { return .notReady }
            guard state.balance[currency, default: 0] >= amount else { return .insufficient }
            state.balance[currency, default: 0] -= amount
            return .done
        }
        switch outcome {
        case .unknownAccount: return Self.missing(destination)
        case .notReady:
            return Self.error(
                400,
                type: "invalid_request_error",
                code: "insufficient_capabilities_for_transfer",
                "Your destination account needs to have at least one of the following capabilities enabled: transfers."
            )
        case .insufficient:
            return Self.error(
                400,
                type: "invalid_request_error",
                code: "balance_insufficient",
                "You have insufficient available funds in your Stripe account."
            )
        case .done: break
        }
        let object: [String: Any] = [
            "id": id, "object": "transfer", "amount": amount, "currency": currency, "destination": destination,
            "reversed": false,
            "metadata": Self.metadata(form, "metadata"),
        ]
        try await send("transfer.created", object: object)
        return try Self.answer(object)
    }

}

struct StandInError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
