import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The customer's pending charges (approve or decline, kept live by the page script) and receipts.
extension WalletPages {
    func addChargeRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("charges", use: charges)
        signedIn.get("charges/live", use: chargesFragment)
        signedIn.post("charges/:id/approve", use: approve)
        signedIn.post("charges/:id/decline", use: decline)
        signedIn.post("charges/:id/coupon", use: applyCoupon)
        signedIn.get("receipts/:id", use: receipt)
        signedIn.get("receipts/:id/pdf", use: receiptFile)
    }

    struct ChargeRow: Sendable {
        struct Item: Sendable {
            var description: String
            /// "2 × " before the description; nothing for one.
            var quantity: String?
            var total: String
        }

        var id: String
        var business: String
        var businessId: String
        /// A shop's charge (not a person's request): it can be blocked.
        var shop: Bool
        var amount: String
        var amountMinor: Int64
        var currency: String
        var items: [Item]
        var hasItems: Bool
        var message: String?
        var status: String
        var pending: Bool
        var paid: Bool
        var expires: String
        var expiresAt: String
        var created: String
        var customer: String
        var refundable: String?
        /// "Refunded $1.00 of $4.20", once anything was refunded.
        var refunds: String?
        var key: String
        /// With a coupon: "Before the coupon $12.00" and "Morning pretzel −$2.40".
        var subtotal: String?
        var discount: String?
        /// "$0.49" when the charge carries a tip.
        var tip: String?
        /// The customer's claimed coupons of this shop, when the charge has none yet.
        var coupons: [CouponChoice] = [] {
            didSet { hasCoupons = !coupons.isEmpty }
        }
        /// Stored: templates see stored values only.
        var hasCoupons = false
        /// What paying earned on loyalty cards: "+2 punches on Bread card (3 of 4)".
        var loyalty: [String]
        /// Paying waits for a second factor: the approval's second step (a code from the authenticator app).
        var secondFactor: FormState? = nil
        /// Each refund with the business's reason: "Refunded $1.00 on 28 Nov, 5:48 PM: Burnt crust".
        var refundLines: [String]

        init(_ charge: Charge, reader: Reader) {
            id = charge.id.uuidString.lowercased()
            business = charge.business.name
            businessId = charge.business.id?.uuidString.lowercased() ?? ""
            shop = charge.business.kind == .business
            amount = reader.money(charge.money)
            amountMinor = charge.amount
            currency = charge.currency
            items = charge.items.map {
                Item(
                    description: $0.description,
                    quantity: $0.quantity == 1 ? nil : "\($0.quantity) × ",
                    total: reader.money($0.unitAmount * Int64($0.quantity), charge.currency)
                )
            }
            hasItems = !items.isEmpty
            message = charge.message
            status = Self.statusName(charge)
            refunds = Self.refunds(charge, reader: reader)
            pending = charge.status == .pending
            paid = charge.status == .approved || charge.status == .refunded
            expires = reader.machine(charge.expiresAt)
            // A shop's charge ends within minutes ("5:48 PM"); a friend's request days later ("5 Dec, 12:22 AM").
            expiresAt =
                reader.day(charge.expiresAt) == reader.day(Date())
                ? reader.time(charge.expiresAt) : reader.when(charge.expiresAt)
            created = reader.when(charge.createdAt)
            customer = "\(charge.customer.name) (@\(charge.customer.username ?? ""))"
            let left = charge.amount - charge.refundedAmount
            refundable = paid && left > 0 ? reader.money(left, charge.currency) : nil
            key = UUID().uuidString
            subtotal = charge.subtotal.map { reader.money($0, charge.currency) }
            tip = charge.tip > 0 ? reader.money(charge.tip, charge.currency) : nil
            discount = charge.discount.map { "\($0.title) −\(reader.money($0.amount, charge.currency))" }
            loyalty = Self.loyalty(charge.loyalty ?? [], reader: reader)
            refundLines = (charge.refunds ?? []).map {
                let values = ["amount": reader.money($0.amount, charge.currency), "when": reader.when($0.createdAt)]
                return $0.reason.map { reason in
                    say("Refunded {amount} {when}: {reason}", values.merging(["reason": reason]) { $1 })
                } ?? say("Refunded {amount} {when}", values)
            }
        }

        /// A charge's status as its reader reads it (`Charge.statusText` in their words).
        static func statusName(_ charge: Charge) -> String {
            if charge.isPartlyRefunded { return say("partly refunded") }
            return switch charge.status {
            case .pending: say("pending")
            case .approved: say("approved")
            case .declined: say("declined")
            case .cancelled: say("cancelled")
            case .expired: say("expired")
            case .refunded: say("refunded")
            }
        }

        /// "+2 punches on Bread card (3 of 4)", or "… (4 of 4): full, its reward waits at the counter".
        static func loyalty(_ earned: [LoyaltyEarned], reader: Reader) -> [String] {
            earned.filter { $0.punchesAdded > 0 }.map {
                let values = [
                    "punches": reader.count($0.punchesAdded, "count.punch"), "card": $0.title,
                    "have": "\($0.punches)", "need": "\($0.punchesRequired)",
                ]
                return $0.completed
                    ? say("+{punches} on {card} ({have} of {need}): full, its reward waits at the counter", values)
                    : say("+{punches} on {card} ({have} of {need})", values)
            }
        }

        /// "Refunded $1.00 of $4.20" (either side reads it alike), or "Refunded in full", once anything was refunded.
        static func refunds(_ charge: Charge, reader: Reader) -> String? {
            guard charge.refundedAmount > 0 else { return nil }
            guard charge.isPartlyRefunded else { return say("Refunded in full") }
            return say(
                "Refunded {amount} of {total}",
                ["amount": reader.money(charge.refundedAmount, charge.currency), "total": reader.money(charge.money)]
            )
        }
    }

    /// The pending-charges fragment's model: the page includes it, the script reloads it alone.
    struct ChargeList: Sendable {
        var csrf: String
        var pending: [ChargeRow]
        var recent: [ChargeRow]
        var hasRecent: Bool
        var none: Bool
    }

    struct ChargesPage: Sendable {
        var shell: Shell
        var list: ChargeList
    }

    /// A coupon a waiting charge could take: "Morning pretzel: −$2.40, you pay $9.60", the best one preselected.
    struct CouponChoice: Sendable {
        /// `claim:<id>` for a claimed coupon, `offer:<id>` for an offer claimed as it is applied.
        var value: String
        /// For the radio's id.
        var key: String
        var label: String
        var detail: String
        var selected: Bool
    }

    static func couponChoices(_ charge: Charge, reader: Reader) -> [CouponChoice] {
        (charge.eligibleCoupons ?? []).enumerated().map { index, coupon in
            let id = (coupon.claimId ?? coupon.offerId).uuidString.lowercased()
            let pay = reader.money(charge.amount - coupon.discountAmount, charge.currency)
            return CouponChoice(
                value: coupon.claimId == nil ? "offer:\(id)" : "claim:\(id)",
                key: "\(charge.id.uuidString.lowercased().prefix(8))-\(index)",
                label: "\(coupon.title): −\(reader.money(coupon.discountAmount, charge.currency))",
                detail: coupon.claimId == nil
                    ? say("You pay {amount}. Not claimed yet: using it claims it.", ["amount": pay])
                    : say("You pay {amount}.", ["amount": pay]),
                selected: index == 0
            )
        }
    }

    func chargeList(_ context: AuthenticatedContext) async throws -> ChargeList {
        let charges = try await wallet.listCharges(
            context.identity,
            business: nil,
            statuses: [],
            limit: 20,
            cursor: nil
        ).items
        var pending: [ChargeRow] = []
        let step = context.page.form("approve")
        for charge in charges where charge.status == .pending {
            var row = ChargeRow(charge, reader: context.reader)
            row.coupons = Self.couponChoices(charge, reader: context.reader)
            if let step, step.fields["charge"]?.value == row.id { row.secondFactor = step }
            pending.append(row)
        }
        let recent = charges.filter { $0.status != .pending }.prefix(5).map { ChargeRow($0, reader: context.reader) }
        return ChargeList(
            csrf: context.csrfToken ?? "",
            pending: pending,
            recent: recent,
            hasRecent: !recent.isEmpty,
            none: pending.isEmpty
        )
    }

    @Sendable func charges(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderCharges(context: context, notice: notice(request))
    }

    func renderCharges(context: AuthenticatedContext, notice: String? = nil) async throws -> Response {
        let page = ChargesPage(
            shell: Shell(title: say("Waiting for you"), context: context, notice: notice),
            list: try await chargeList(context)
        )
        return renderer.render("wallet/charges", page)
    }

    @Sendable func chargesFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render("wallet/charges-list", try await chargeList(context))
    }

    /// The customer puts a coupon on a charge that waits for them (claiming an offer as it goes); the page shows the
    /// new amount.
    @Sendable func applyCoupon(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let id = try Query.id(context.parameters, "id", "charge")
        let picked = form["coupon"].split(separator: ":", maxSplits: 1).map(String.init)
        guard picked.count == 2, let coupon = UUID(uuidString: picked[1]), ["claim", "offer"].contains(picked[0]) else {
            return renderer.refused(alert: say("Pick one of the coupons."), returnTo: "/wallet/charges")
        }
        let asked =
            picked[0] == "claim" ? ApplyCouponRequest(claimId: coupon) : ApplyCouponRequest(offerId: coupon)
        do {
            _ = try await wallet.applyCoupon(context.identity, id: id, asked)
        } catch let error as PlazaError where error.status == .conflict || error.status == .unprocessableContent {
            return renderer.refused(
                alert: say("Coupon not applied: {reason}", ["reason": error.sentence]),
                returnTo: "/wallet/charges"
            )
        }
        return PageRenderer.seeOther("/wallet/charges?notice=coupon")
    }

    /// Pays what the form showed (its amount, currency and business travel with it, as the API's approval does).
    @Sendable func approve(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let id = try Query.id(context.parameters, "id", "charge")
        var paid: Charge?
        // The success state says what happened: "Paid Bruno's Bakery $4.20 ✓" (on the page, or the payment's own page).
        return try await answer(
            request,
            context: context,
            success: "approved",
            done: "/wallet/activity/\(id.uuidString.lowercased())?notice=paid",
            message: {
                paid.map { charge in
                    let earned = ChargeRow.loyalty(charge.loyalty ?? [], reader: context.reader)
                    let said = say(
                        "Paid {business} {amount} ✓",
                        ["business": charge.business.name, "amount": context.reader.money(charge.money)]
                    )
                    return ([said] + earned)
                        .joined(separator: " · ")
                }
            },
            secondStep: { error in
                let state = FormState(form, error: error).with("charge", id.uuidString.lowercased())
                return renderer.refused("approve", state, returnTo: "/wallet/charges")
            }
        ) {
            let approval = ApproveChargeRequest(
                amount: Int64(form["amount"]) ?? -1,
                currency: form["currency"],
                businessId: UUID(uuidString: form["businessId"])
            )
            _ = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await once(form, action: "approve", context: context) { claim in
                    paid = try await wallet.approveCharge(context.identity, id: id, approval, claim: claim)
                }
            }
        }
    }

    @Sendable func decline(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await answer(request, context: context, success: "declined") {
            _ = try await wallet.endCharge(
                context.identity,
                id: try Query.id(context.parameters, "id", "charge"),
                as: .declined
            )
        }
    }

    /// What a form posted by the page script gets back on success: the outcome, and the sentence to show.
    struct ScriptAnswer: Codable, Sendable {
        var status: String
        var message: String?
    }

    /// A form posted by the page script (`Accept: application/json`) gets JSON back; a plain form gets the page (or
    /// `done` on success, when given).
    func answer(
        _ request: Request,
        context: AuthenticatedContext,
        success: String,
        back: String = "/wallet/charges",
        done: String? = nil,
        message: () -> String? = { nil },
        secondStep: ((PlazaError) -> Response)? = nil,
        _ action: () async throws -> Void
    ) async throws -> Response {
        let script = request.headers[.accept]?.contains("application/json") == true
        do {
            try await action()
        } catch let error as PlazaError where error.status.code < 500 {
            if script { return error.problemResponse() }
            if error.asksAgain, let secondStep { return secondStep(error) }
            // Back to the page, saying what was refused and why.
            if back == "/wallet/charges" { return renderer.refused(alert: error.summary, returnTo: back) }
            return renderer.refused(
                alert: success == "refunded"
                    ? say("Refund refused: {reason}", ["reason": error.sentence])
                    : say("Cancel refused: {reason}", ["reason": error.sentence]),
                returnTo: back
            )
        }
        if script { return try .json(ScriptAnswer(status: success, message: message())) }
        return PageRenderer.seeOther(done ?? "\(back)?notice=\(success)")
    }

    // MARK: Receipts

    struct ReceiptPage: Sendable {
        var shell: Shell
        var row: ChargeRow
        var id: String
        var reference: String
        var paidAt: String
        /// The shop's address, tax registration and "Includes 7 % tax $0.32", when it gave them.
        var address: String?
        var taxId: String?
        var taxLine: String?
        var taxAmount: String?
        var refunded: String?
        /// What stayed paid after a partial refund.
        var kept: String?
    }

    @Sendable func receipt(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "receipt")
        let receipt = try await wallet.receipt(context.identity, id: id)
        var charge = try await wallet.charge(context.identity, id: id).dto()
        charge.loyalty = receipt.loyalty
        charge.refunds = receipt.refunds
        let page = ReceiptPage(
            shell: Shell(title: say("Receipt {reference}", ["reference": receipt.reference]), context: context),
            row: ChargeRow(charge, reader: context.reader),
            id: id.uuidString.lowercased(),
            reference: receipt.reference,
            paidAt: context.reader.full(receipt.paidAt),
            address: receipt.address,
            taxId: receipt.taxId,
            taxLine: receipt.tax.map {
                say(
                    "Includes {rate} % tax",
                    ["rate": $0.rate.formatted(.number.precision(.fractionLength(0...2)).locale(context.reader.locale))]
                )
            },
            taxAmount: receipt.tax.map { context.reader.money($0.amount, receipt.currency) },
            refunded: receipt.refundedAmount > 0 ? context.reader.money(receipt.refundedAmount, receipt.currency) : nil,
            kept: charge.isPartlyRefunded
                ? context.reader.money(charge.amount - charge.refundedAmount, charge.currency) : nil
        )
        return renderer.render("wallet/receipt", page)
    }

    /// The receipt as a PDF, for the page's Download and Share (the API's, by the page's session).
    @Sendable func receiptFile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await wallet.receiptPDF(
            context.identity,
            id: try Query.id(context.parameters, "id", "receipt"),
            reader: context.reader
        )
    }
}
