import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// The stand-in's hosted pages, as Stripe serves them and as a customer clicks through them.
extension StripeStandIn {
    // MARK: The hosted pages, as a customer clicks through them

    /// The customer pays on the Checkout page with `card`: where the page sends them next (Plaza's success URL), or
    /// `nil` when the card was refused and they are still on the page.
    public func pay(_ checkoutURL: String, card: String) async throws -> String? {
        let response = try await post(checkoutURL, form: "card=\(card)")
        return response.status == 303 ? response.location : nil
    }

    /// The user fills in Stripe's onboarding form; where it sends them next (Plaza's return URL).
    public func completeOnboarding(_ url: String) async throws -> String? {
        try await post(url, form: "iban=DE89370400440532013000").location
    }

    private func post(_ url: String, form: String) async throws -> (status: Int, location: String?) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await Self.browser.execute(request, timeout: .seconds(10))
        return (Int(response.status.code), response.headers.first(name: "Location"))
    }

    /// The customer's browser: it reads where a page sends it rather than going there (Plaza's address is the test's).
    static let browser = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(redirectConfiguration: .disallow)
    )

    func checkoutPage(_ id: String, _ method: HTTPRequest.Method, _ form: [String: String]) async throws -> Response {
        guard var session = state.withLock({ $0.sessions[id] }) else { return Response(status: .notFound) }
        guard session.status == "open" else { return Self.page("This checkout page has expired.", status: 410) }
        let checkoutForm = { (error: String) in
            #"<p role="alert">\#(error)</p><form method="post"><label>Card <input name="card"></label><button>Pay</button></form>"#
                + #"<a href="\#(session.cancelURL)">Back</a>"#
        }
        guard method == .post else { return Self.page(checkoutForm("")) }
        let card = (form["card"] ?? "").filter(\.isNumber)
        let decline: String? =
            switch card {
            case "4242424242424242": nil
            case "4000000000009995": "insufficient_funds"
            default: "generic_decline"
            }
        let intent = session.paymentIntent ?? Self.id("pi")
        session.paymentIntent = intent
        if let decline {
            state.withLock { $0.sessions[id] = session }
            try await send(
                "payment_intent.payment_failed",
                object: [
                    "id": intent, "object": "payment_intent", "amount": session.amount, "currency": session.currency,
                    "status": "requires_payment_method",
                    "metadata": session.metadata,
                    "last_payment_error": [
                        "type": "card_error", "code": "card_declined", "decline_code": decline,
                        "message": "Your card was declined.",
                    ],
                ]
            )
            return Self.page(checkoutForm("Your card was declined."), status: 402)
        }
        session.status = "complete"
        session.paymentStatus = "paid"
        state.withLock {
            $0.sessions[id] = session
            $0.balance[session.currency, default: 0] += session.amount
        }
        try await send("checkout.session.completed", object: json(session))
        return Response(
            status: .seeOther,
            headers: [.location: session.successURL.replacingOccurrences(of: "{CHECKOUT_SESSION_ID}", with: id)]
        )
    }

    func onboardingPage(_ id: String, _ method: HTTPRequest.Method) async throws -> Response {
        guard var account = state.withLock({ $0.accounts[id] }) else { return Response(status: .notFound) }
        guard method == .post else {
            return Self.page(
                #"<form method="post"><label>IBAN <input name="iban"></label><button>Submit</button></form>"#
            )
        }
        account.ready = true
        state.withLock { $0.accounts[id] = account }
        try await send("account.updated", object: json(account), account: id)
        return Response(status: .seeOther, headers: [.location: account.returnURL])
    }
}
