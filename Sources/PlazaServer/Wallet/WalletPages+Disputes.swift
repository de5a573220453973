import Foundation
import Hummingbird
import PlazaCore

/// Payment disputes on the pages (issue 39, trust at the till): "Problem with this payment?" on a receipt opens the
/// report form; the dispute's page shows both sides and the decision, with the business's answer form (words, or a
/// refund) and the customer's "Ask Plaza to decide"; the counter links the business's list. Admins decide in the
/// review queue, whose item links here.
extension WalletPages {
    func addDisputeRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("receipts/:id/problem", use: problemForm)
        signedIn.post("receipts/:id/problem", use: reportProblem)
        signedIn.get("disputes", use: disputeList)
        signedIn.get("disputes/:id", use: disputePage)
        signedIn.post("disputes/:id/answer", use: answerDispute)
        signedIn.post("disputes/:id/escalate", use: escalateDispute)
    }

    static let disputeNotices = [
        "reported": phrase(
            "Reported: the business is told and answers here. You hear from them, and can ask Plaza to decide."
        ),
        "answered": phrase("Answer sent: the customer reads it, and may still ask Plaza to decide."),
        "refunded": phrase("Refund sent with your answer: the dispute is settled."),
        "escalated": phrase("Sent to Plaza: an admin reads both sides and decides. You both hear the outcome."),
    ]

    struct ReasonOption: Sendable {
        var value: String
        var label: String
        var checked: Bool
    }

    struct ProblemPage: Sendable {
        var shell: Shell
        var chargeId: String
        var business: String
        var amount: String
        var paidAt: String
        var reasons: [ReasonOption]
        var form: FormState
        /// The business's people reach this from a receipt too: nothing to report for them.
        var customer: Bool
    }

    struct DisputeView: Sendable {
        var id: String
        var link: String
        var business: String
        var customer: String
        var amount: String
        var reason: String
        var details: String
        var state: String
        var active: Bool
        var opened: String
        var answer: String?
        var answeredAt: String?
        var refund: String?
        /// What the business gave back with its answer (Plaza's refund shows with the decision).
        var answerRefund: String?
        var decision: String?
        var decidedAt: String?
    }

    struct DisputePage: Sendable {
        var shell: Shell
        var dispute: DisputeView
        var receiptLink: String
        var listLink: String
        /// The business's people, while it waits for their answer.
        var canAnswer: Bool
        /// The customer, before Plaza decides.
        var canEscalate: Bool
        var escalated: Bool
        var admin: Bool
        var refundable: String
        var currency: String
        var key: String
        var form: FormState
    }

    struct DisputeListPage: Sendable {
        var shell: Shell
        var heading: String
        var rows: [DisputeView]
        var empty: Bool
        var next: String?
    }

    /// `DisputeReason.label` in the reader's words.
    static func reasonName(_ reason: DisputeReason) -> String {
        switch reason {
        case .notReceived: say("I did not get what I paid for")
        case .wrongAmount: say("The amount is wrong")
        case .chargedTwice: say("I was charged twice")
        case .notAsDescribed: say("It was not as described")
        case .unauthorized: say("I did not make this payment")
        case .other: say("Something else")
        }
    }

    /// `DisputeState.label` in the reader's words.
    static func stateName(_ state: DisputeState) -> String {
        switch state {
        case .open: say("Waiting for the business")
        case .answered: say("The business answered")
        case .escalated: say("Plaza decides")
        case .refunded: say("Refunded")
        case .rejected: say("Not upheld")
        }
    }

    func disputeView(_ dispute: Dispute, reader: Reader) -> DisputeView {
        DisputeView(
            id: dispute.id.uuidString.lowercased(),
            link: WalletService.disputePath(dispute.id),
            business: dispute.businessName,
            customer: dispute.customer.displayName,
            amount: reader.money(dispute.amount, dispute.currency),
            reason: Self.reasonName(dispute.reason),
            details: dispute.details,
            state: Self.stateName(dispute.state),
            active: dispute.state.isActive,
            opened: reader.when(dispute.createdAt),
            answer: dispute.answer,
            answeredAt: dispute.answeredAt.map { reader.when($0) },
            refund: dispute.disputeRefund.map { reader.money($0, dispute.currency) },
            answerRefund: dispute.decidedAt == nil
                ? dispute.disputeRefund.map { reader.money($0, dispute.currency) } : nil,
            decision: dispute.decision,
            decidedAt: dispute.decidedAt.map { reader.when($0) }
        )
    }

    @Sendable func problemForm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "receipt")
        if let existing = try await wallet.dispute(context.identity, charge: id) {
            return PageRenderer.seeOther(WalletService.disputePath(existing.id))
        }
        let receipt = try await wallet.receipt(context.identity, id: id)
        let charge = try await wallet.charge(context.identity, id: id)
        let form = context.page.form("problem") ?? FormState(names: ["reason", "details"])
        let page = ProblemPage(
            shell: Shell(title: say("Problem with a payment"), context: context),
            chargeId: id.uuidString.lowercased(),
            business: charge.businessName,
            amount: context.reader.money(charge.amount, charge.currency),
            paidAt: context.reader.full(receipt.paidAt),
            reasons: DisputeReason.allCases.map {
                ReasonOption(
                    value: $0.rawValue,
                    label: Self.reasonName($0),
                    checked: form.fields["reason"]?.value == $0.rawValue
                )
            },
            form: form,
            customer: charge.customerId == context.identity.user.id
        )
        return renderer.render("wallet/problem", page)
    }

    @Sendable func reportProblem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let id = try Query.id(context.parameters, "id", "receipt")
        let back = "/wallet/receipts/\(id.uuidString.lowercased())/problem"
        do {
            guard let reason = DisputeReason(rawValue: form["reason"]) else {
                throw PlazaError.validation(field: "reason", phrase("Choose what went wrong."))
            }
            let dispute = try await wallet.openDispute(
                context.identity,
                charge: id,
                DisputeRequest(reason: reason, details: form["details"])
            )
            return PageRenderer.seeOther(WalletService.disputePath(dispute.id) + "?notice=reported")
        } catch let error as PlazaError where error.code == .validationFailed {
            return renderer.refused(
                "problem",
                FormState(form, names: ["reason", "details"], error: error),
                returnTo: back
            )
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(alert: error.summary, returnTo: back)
        }
    }

    @Sendable func disputeList(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters
        let business = query.get("business").flatMap(UUID.init(uuidString:))
        let page = try await wallet.disputes(
            context.identity,
            business: business,
            limit: 25,
            cursor: query.get("cursor")
        )
        let rows = page.items.map { disputeView($0, reader: context.reader) }
        let name = business == nil ? nil : page.items.first?.businessName
        let model = DisputeListPage(
            shell: Shell(title: say("Payment disputes"), context: context),
            heading: business == nil
                ? say("Problems you reported")
                : name.map { say("Payment disputes · {business}", ["business": $0]) } ?? say("Payment disputes"),
            rows: rows,
            empty: rows.isEmpty,
            next: page.nextCursor.map {
                "/wallet/disputes?cursor=\($0)" + (business.map { "&business=\($0.uuidString.lowercased())" } ?? "")
            }
        )
        return renderer.render("wallet/disputes", model)
    }

    @Sendable func disputePage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "dispute")
        let dispute = try await wallet.dispute(context.identity, id: id)
        let me = context.identity.user
        let customer = dispute.customer.username == me.username
        let team = try await wallet.businesses.store.role(of: me.id, in: dispute.businessId, on: wallet.database.sql)
        let left = dispute.amount - dispute.refundedAmount
        let notice = request.uri.queryParameters.get("notice").flatMap { Self.disputeNotices[$0] }.map { say($0) }
        let page = DisputePage(
            shell: Shell(title: say("Payment dispute"), context: context, notice: notice),
            dispute: disputeView(dispute, reader: context.reader),
            receiptLink: "/wallet/receipts/\(dispute.chargeId.uuidString.lowercased())",
            listLink: customer
                ? "/wallet/disputes" : "/wallet/disputes?business=\(dispute.businessId.uuidString.lowercased())",
            canAnswer: team != nil && [.open, .answered].contains(dispute.state),
            canEscalate: customer && [.open, .answered].contains(dispute.state),
            escalated: dispute.state == .escalated,
            admin: me.role == .admin,
            refundable: Reader.typed(Money(amount: left, currency: dispute.currency)),
            currency: dispute.currency,
            key: UUID().uuidString,
            form: context.page.form("answer") ?? FormState(names: ["message", "refund"])
        )
        return renderer.render("wallet/dispute", page)
    }

    @Sendable func answerDispute(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let id = try Query.id(context.parameters, "id", "dispute")
        let back = WalletService.disputePath(id)
        let refunding = !form["refund"].trimmingCharacters(in: .whitespaces).isEmpty
        do {
            let refund: Int64? =
                refunding
                ? try Self.amount(form["refund"], currency: currency) : nil
            let sent = try await once(form, action: "dispute-answer", context: context) { claim in
                _ = try await wallet.answerDispute(
                    context.identity,
                    id: id,
                    DisputeAnswer(message: form["message"], refund: refund),
                    claim: claim
                )
            }
            return PageRenderer.seeOther(back + (sent ? (refunding ? "?notice=refunded" : "?notice=answered") : ""))
        } catch let error as PlazaError where error.code == .validationFailed {
            var state = FormState(form, names: ["message", "refund"], error: error)
            // The amount parser names `amount`: on this form it is the refund.
            if let message = state.fields["amount"]?.error { state.fields["refund"]?.error = message }
            return renderer.refused("answer", state, returnTo: back + "#answer")
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(alert: error.summary, returnTo: back)
        }
    }

    @Sendable func escalateDispute(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: limit)
        let id = try Query.id(context.parameters, "id", "dispute")
        do {
            _ = try await wallet.escalateDispute(context.identity, id: id)
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(alert: error.summary, returnTo: WalletService.disputePath(id))
        }
        return PageRenderer.seeOther(WalletService.disputePath(id) + "?notice=escalated")
    }
}
