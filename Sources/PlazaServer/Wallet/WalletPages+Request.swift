import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// Asking a friend to pay (Venmo's Request): the form, with recent contacts, and the requests sent with their answers.
/// The friend answers on their charges page, as they answer a shop.
extension WalletPages {
    func addRequestRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("request", use: requestPage)
        signedIn.post("request", use: sendRequest)
        signedIn.post("request/:id/cancel", use: cancelRequest)
    }

    struct RequestPage: Sendable {
        struct Sent: Sendable {
            var id: String
            var who: String
            var amount: String
            var note: String?
            var when: String
            var status: String
            var pending: Bool
        }

        var shell: Shell
        var form: FormState
        var key: String
        var currency: String
        var contacts: [Contact]
        var hasContacts: Bool
        var sent: [Sent]
        var hasSent: Bool
        var suggestions: [Suggestion] = []
        var hasSuggestions = false
    }

    @Sendable func requestPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        var notice = notice(request)
        // "You asked Carla K. for $12.00.": said from the request itself, never from text in the URL.
        if let id = request.uri.queryParameters.get("sent").flatMap(UUID.init(uuidString:)),
            let sent = try? await wallet.charge(context.identity, id: id).dto()
        {
            let person = Person(username: sent.customer.username ?? "", displayName: sent.customer.name)
            notice =
                say(
                    "You asked {name} for {amount}. They can pay or decline it in Plaza.",
                    ["name": person.shortName, "amount": context.reader.money(sent.money)]
                )
        }
        let form = context.page.form("request") ?? FormState(FormData(request.uri.query ?? ""), names: Self.sendFields)
        return try await renderRequest(context: context, form: form, notice: notice)
    }

    func renderRequest(context: AuthenticatedContext, form: FormState, notice: String? = nil) async throws -> Response {
        let contacts = try await wallet.contacts(context.identity).map(Self.contact)
        let sent = try await sentRequests(context, limit: 20)
        var page = RequestPage(
            shell: Shell(title: say("Request money"), context: context, notice: notice),
            form: form,
            key: UUID().uuidString,
            currency: currency,
            contacts: contacts,
            hasContacts: !contacts.isEmpty,
            sent: sent,
            hasSent: !sent.isEmpty
        )
        page.suggestions = await suggestions(form, path: "/wallet/request", context: context)
        page.hasSuggestions = !page.suggestions.isEmpty
        return renderer.render("wallet/request", page)
    }

    /// The caller's newest requests to friends with their answers (waiting ones can be called off): the request page
    /// lists them, and the wallet's history shows the newest beside the money that moved (issue 39: they were missing).
    func sentRequests(_ context: AuthenticatedContext, limit: Int) async throws -> [RequestPage.Sent] {
        let reader = context.reader
        return try await wallet.sentPaymentRequests(context.identity, statuses: [], limit: limit, cursor: nil).items.map
        {
            RequestPage.Sent(
                id: $0.id.uuidString.lowercased(),
                who: $0.customer.name,
                amount: reader.money($0.money),
                note: $0.message,
                when: reader.when($0.createdAt),
                status: Self.requestStatus($0.status),
                pending: $0.status == .pending
            )
        }
    }

    static func requestStatus(_ status: ChargeStatus) -> String {
        switch status {
        case .pending: say("waiting")
        case .approved, .refunded: say("paid")
        case .declined: say("declined")
        case .cancelled: say("called off")
        case .expired: say("expired")
        }
    }

    @Sendable func sendRequest(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        var made: Charge?
        do {
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await once(form, action: "request", context: context) { claim in
                made = try await wallet.requestPayment(
                    context.identity,
                    CreatePaymentRequest(
                        to: form["to"],
                        amount: amount,
                        currency: currency,
                        note: form.optional("note")
                    ),
                    claim: claim
                )
            }
            if !ran { return PageRenderer.seeOther("/wallet/request?notice=done") }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "request",
                FormState(form, names: Self.sendFields, error: error),
                returnTo: "/wallet/request"
            )
        }
        return PageRenderer.seeOther("/wallet/request?sent=\(made?.id.uuidString.lowercased() ?? "")")
    }

    @Sendable func cancelRequest(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        _ = try await wallet.endCharge(
            context.identity,
            id: try Query.id(context.parameters, "id", "request"),
            as: .cancelled
        )
        // Back to the page the form was on: the request page, or the wallet's history.
        let back = form["back"] == "/wallet" ? "/wallet" : "/wallet/request"
        return PageRenderer.seeOther("\(back)?notice=request-cancelled\(back == "/wallet" ? "#sent-requests" : "")")
    }
}
