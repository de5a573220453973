import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// The customer's offer page, and its "Report this offer" (issue 40): a reason, details, and Plaza's team looks at it.
extension OffersPages {
    struct OfferPage: Sendable {
        var shell: Shell
        var offer: OfferRow
        /// Markup made by `QRCode` from Plaza's own payload (never user text): the one unescaped value.
        var qr: String?
        var canClaim: Bool
        var report: ReportForm
    }

    /// One offer (the first look counts as opened), with its claim's code and QR for the counter.
    @Sendable func offer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "offer")
        let offer = try await offers.offer(context.identity, id)
        let claim = offer.claim.flatMap { $0.status == .claimed ? $0 : nil }
        let filed = try await offers.myReport(context.identity, id)
        let model = OfferPage(
            shell: Shell(
                title: offer.title,
                context: context,
                notice: request.uri.queryParameters.get("notice").flatMap { Self.notices[String($0)] }.map { say($0) }
            ),
            offer: Self.row(offer, reader: context.reader),
            qr: claim.flatMap { QRCode($0.qrPayload)?.svg(scale: 4) },
            canClaim: offer.kind == .coupon && offer.claim?.status != .claimed && offer.claim?.status != .redeemed,
            report: Self.reportForm(
                context.page.form("report"),
                filed: filed,
                reader: context.reader
            )
        )
        return renderer.render("offers/offer", model)
    }

    struct ReportForm: Sendable {
        var form: FormState
        var reasons: [Choice]
        /// Drawn open when a refused submission comes back.
        var open: Bool
        /// "You reported this offer on 24 Nov 2026, 5:50 PM." once they did (one report per person and offer).
        var filed: String?
    }

    static func reportForm(_ refused: FormState?, filed: OfferReport?, reader: Reader) -> ReportForm {
        let form = refused ?? FormState(names: ["reason", "details"])
        return ReportForm(
            form: form,
            reasons: OfferReportReason.allCases.map {
                Choice(
                    value: $0.rawValue,
                    label: reasonLabel($0),
                    selected: form.fields["reason"]?.value == $0.rawValue
                )
            },
            open: refused != nil,
            filed: filed.map { report in
                let outcome =
                    switch report.state {
                    case .open: say("Plaza's team will look at it.")
                    case .upheld: say("Plaza's team stopped the campaign.")
                    case .dismissed: say("Plaza's team found nothing against its rules.")
                    }
                return say("You reported this offer on {when}.", ["when": reader.full(report.createdAt)]) + " "
                    + outcome
            }
        )
    }

    /// A report's reason as the reader reads it (PlazaCore's `label` is English).
    static func reasonLabel(_ reason: OfferReportReason) -> String {
        switch reason {
        case .misleading: say("Misleading: it promises what the shop does not give")
        case .offensive: say("Offensive words or pictures")
        case .scam: say("A scam")
        case .discriminatory: say("Discriminatory")
        case .other: say("Something else (say what)")
        }
    }

    @Sendable func report(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "offer")
        let path = "/offers/\(id.uuidString.lowercased())"
        do {
            guard let reason = OfferReportReason(rawValue: form["reason"]) else {
                throw PlazaError.validation(field: "reason", phrase("Choose what is wrong with it."))
            }
            let details = form["details"].trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try await offers.report(
                context.identity,
                id,
                OfferReportRequest(reason: reason, details: details.isEmpty ? nil : details)
            )
            return PageRenderer.seeOther("\(path)?notice=reported")
        } catch let error as PlazaError where error.code == .validationFailed {
            return renderer.refused(
                "report",
                FormState(form, names: ["reason", "details"], error: error),
                returnTo: "\(path)#report"
            )
        }
    }
}
