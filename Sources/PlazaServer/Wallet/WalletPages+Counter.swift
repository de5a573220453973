import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The merchant's counter: who is in the shop now, charging one of them (or a pay code), pending and settled
/// charges, all kept live by the page script over `/v1/events`.
extension WalletPages {
    func addCounterRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("counter/:businessId", use: counter)
        signedIn.get("counter/:businessId/live", use: counterFragment)
        signedIn.get("counter/:businessId/people", use: peopleFragment)
        signedIn.post("counter/:businessId/charge", use: chargeCustomer)
        signedIn.post("counter/:businessId/charges/:id/cancel", use: cancelCharge)
        signedIn.post("counter/:businessId/charges/:id/refund", use: refundCharge)
        signedIn.post("counter/:businessId/payout", use: payOut)
    }

    /// The live part of the counter: the fragment the script reloads.
    struct CounterLive: Sendable {
        struct Present: Sendable {
            var username: String
            var displayName: String
            var since: String
            var sinceText: String
        }

        var csrf: String
        var businessId: String
        var present: [Present]
        var nobody: Bool
        var pending: [ChargeRow]
        var settled: [ChargeRow]
        /// Owners only: staff run the counter but do not see the business's money.
        var balance: String?
        var days: [Day]

        struct Day: Sendable {
            var date: String
            var charges: String
            var net: String
        }
    }

    struct CounterPage: Sendable {
        var shell: Shell
        var name: String
        var live: CounterLive
        var form: FormState
        var key: String
        var payoutKey: String
        var currency: String
        var sale: Sale
        /// Owners keep the items, tips and tax line (`/places/businesses/{id}/items`).
        var owner: Bool
    }

    /// Who is in the shop now, first on the counter (its own live region, reloaded as people come and go).
    func counterPeople(_ context: AuthenticatedContext, business: UUID) async throws -> CounterLive {
        let present = try await wallet.places.presence(context.identity, business: business)
        let reader = context.reader
        return CounterLive(
            csrf: context.csrfToken ?? "",
            businessId: business.uuidString.lowercased(),
            present: present.map {
                CounterLive.Present(
                    username: $0.username,
                    displayName: $0.displayName,
                    since: reader.machine($0.since),
                    sinceText: reader.time($0.since)
                )
            },
            nobody: present.isEmpty,
            pending: [],
            settled: [],
            balance: nil,
            days: []
        )
    }

    func counterLive(_ context: AuthenticatedContext, business: UUID) async throws -> CounterLive {
        let charges = try await wallet.listCharges(
            context.identity,
            business: business,
            statuses: [],
            limit: 30,
            cursor: nil
        ).items
        let owner = try await wallet.businesses.role(of: context.identity, in: business) == .owner
        let balances = owner ? try await wallet.ledger.balances(owner: business, on: wallet.database.sql) : [:]
        let days = try await wallet.dailyTotals(context.identity, business: business, days: 7)
        let reader = context.reader
        return CounterLive(
            csrf: context.csrfToken ?? "",
            businessId: business.uuidString.lowercased(),
            present: [],
            nobody: false,
            pending: charges.filter { $0.status == .pending }.map { ChargeRow($0, reader: reader) },
            settled: charges.filter { $0.status != .pending }.prefix(10).map { ChargeRow($0, reader: reader) },
            balance: owner ? reader.money(balances[currency] ?? 0, currency) : nil,
            days: days.map {
                CounterLive.Day(
                    date: RFC3339.parse($0.date + "T12:00:00Z").map { reader.day($0) } ?? $0.date,
                    charges: reader.count($0.charges, "count.sale"),
                    net: reader.money($0.net, $0.currency)
                )
            }
        )
    }

    @Sendable func counter(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderCounter(context: context, notice: notice(request))
    }

    func renderCounter(context: AuthenticatedContext, notice: String? = nil) async throws -> Response {
        let id = try Query.id(context.parameters, "businessId", "business")
        let business = try await wallet.businesses.requireMember(context.identity, of: id)
        let items = try await counterItems(id)
        let form = context.page.form("charge")
        var people = try await counterPeople(context, business: id)
        let live = try await counterLive(context, business: id)
        (people.pending, people.settled, people.balance, people.days) = (
            live.pending, live.settled, live.balance, live.days
        )
        let page = CounterPage(
            shell: Shell(
                title: say("{business} counter", ["business": business.name]),
                context: context,
                notice: notice
            ),
            name: business.name,
            live: people,
            form: form ?? FormState(names: Self.chargeFields),
            key: UUID().uuidString,
            payoutKey: UUID().uuidString,
            currency: currency,
            sale: sale(items, tipPercents: business.tipPercents, form: form, reader: context.reader),
            owner: try await wallet.businesses.role(of: context.identity, in: id) == .owner
        )
        return renderer.render("wallet/counter", page)
    }

    @Sendable func counterFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "businessId", "business")
        _ = try await wallet.businesses.requireMember(context.identity, of: id)
        return renderer.render("wallet/counter-live", try await counterLive(context, business: id))
    }

    @Sendable func peopleFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "businessId", "business")
        _ = try await wallet.businesses.requireMember(context.identity, of: id)
        return renderer.render("wallet/counter-people", try await counterPeople(context, business: id))
    }

    /// The items the counter offers to tap (the first 200, by category and name).
    func counterItems(_ business: UUID) async throws -> [BusinessItem] {
        try await wallet.businesses.store.items(business: business, limit: 200, offset: 0, on: wallet.database.sql)
    }

    /// The counter's charge form; a coupon's code (or its scanned QR) takes its discount off the amount.
    static let chargeFields = ["customer", "payCode", "amount", "description", "coupon", "tip", "tipOther"]

    /// Charges the named customer (present now) or the one whose pay code was typed in.
    @Sendable func chargeCustomer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "businessId", "business")
        let form = try await request.decodeForm(limit: limit)
        let script = request.headers[.accept]?.contains("application/json") == true
        let back = "/wallet/counter/\(id.uuidString.lowercased())"
        let items = try await counterItems(id)
        let names = Self.chargeFields + items.map { Self.quantityField($0.id) }
        do {
            let charge = try saleRequest(form, business: id, items: items)
            _ = try await once(form, action: "charge", context: context) { claim in
                _ = try await wallet.createCharge(context.identity, charge, claim: claim)
            }
        } catch let error as PlazaError where error.status.code < 500 {
            if script { return error.problemResponse() }
            var state = FormState(form, names: names, error: error)
            // A problem of a line ("items.2.itemId": removed meanwhile) has no field of its own on the form.
            if let line = (error.errors ?? []).first(where: { !names.contains($0.field) }) {
                state.error = line.message
            }
            return renderer.refused("charge", state, returnTo: "\(back)#charge-form")
        }
        return script ? try .json(Acknowledgement(status: "charged")) : PageRenderer.seeOther("\(back)?notice=charged")
    }

    @Sendable func cancelCharge(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let business = try Query.id(context.parameters, "businessId", "business")
        return try await answer(
            request,
            context: context,
            success: "cancelled",
            back: "/wallet/counter/\(business.uuidString.lowercased())"
        ) {
            _ = try await wallet.endCharge(
                context.identity,
                id: try Query.id(context.parameters, "id", "charge"),
                as: .cancelled
            )
        }
    }

    @Sendable func refundCharge(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let business = try Query.id(context.parameters, "businessId", "business")
        let form = try await request.decodeForm(limit: limit)
        return try await answer(
            request,
            context: context,
            success: "refunded",
            back: "/wallet/counter/\(business.uuidString.lowercased())"
        ) {
            let amount = try Self.amount(form["amount"], currency: currency)
            let id = try Query.id(context.parameters, "id", "charge")
            _ = try await once(form, action: "refund", context: context) { claim in
                _ = try await wallet.refundCharge(
                    context.identity,
                    id: id,
                    RefundRequest(amount: amount, reason: form["reason"]),
                    claim: claim
                )
            }
        }
    }

    /// Owners: pays the business's balance (or part of it) out to the bank; refused ones say why on the counter.
    @Sendable func payOut(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let business = try Query.id(context.parameters, "businessId", "business")
        let form = try await request.decodeForm(limit: limit)
        let back = "/wallet/counter/\(business.uuidString.lowercased())"
        do {
            let amount = try Self.amount(form["amount"], currency: currency)
            _ = try await once(form, action: "payout", context: context) { claim in
                _ = try await wallet.withdraw(
                    context.identity,
                    WithdrawalRequest(amount: amount, currency: currency, businessId: business),
                    claim: claim
                )
            }
        } catch let error as PlazaError where error.asksAgain {
            // The counter's form has no field for the code: the wallet's withdraw form asks for it.
            return renderer.refused(
                alert: say("Pay-outs need a code from your authenticator app: Withdraw in your wallet asks for it."),
                returnTo: back
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(alert: say("Pay-out refused: {reason}", ["reason": error.sentence]), returnTo: back)
        }
        return PageRenderer.seeOther("\(back)?notice=withdrawn")
    }
}
