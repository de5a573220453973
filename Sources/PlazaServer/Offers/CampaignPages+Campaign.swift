import Foundation
import Hummingbird
import PlazaCore

/// One campaign for its team: where it stands, what the lint found, the offer as customers see it, the buttons its
/// state allows, and its figures by day.
extension CampaignPages {
    /// An offer as the customer's card shows it.
    struct OfferCard: Sendable {
        var business: String
        var title: String
        var body: String
        var discount: String?
        var terms: String?
        var ends: String?
    }

    static func card(_ content: CampaignContent, business: String, reader: Reader) -> OfferCard {
        var terms: [String] = []
        if let spend = content.minimumSpend {
            terms.append(say("On a spend of {amount} or more", ["amount": reader.money(spend)]))
        }
        if let cap = content.maxDiscount { terms.append(say("at most {amount} off", ["amount": reader.money(cap)])) }
        return OfferCard(
            business: business,
            title: content.title,
            body: content.body,
            discount: content.discount.flatMap { discountWords($0, reader: reader) },
            terms: terms.isEmpty ? nil : terms.joined(separator: ", "),
            ends: say("Ends on {when}", ["when": reader.full(content.endsAt)])
        )
    }

    /// "10 % off", "$1.50 off".
    static func discountWords(_ discount: CouponDiscount, reader: Reader) -> String? {
        if let percent = discount.percentOff { return say("{percent} % off", ["percent": String(percent)]) }
        return discount.money.map { say("{amount} off", ["amount": reader.money($0)]) }
    }

    struct Finding: Sendable {
        var message: String
    }

    struct Detail: Sendable {
        var label: String
        var value: String
    }

    struct CampaignPage: Sendable {
        var shell: Shell
        var id: String
        var businessId: String
        var business: String
        var title: String
        var kind: String
        var state: String
        /// The state in English, for `data-state`.
        var stateCode: String
        var rejectionReason: String?
        /// "Stopped by Plaza on 24 Nov 2026, 5:50 PM: <reason>" (issue 40).
        var stopped: String?
        /// The reason is about a change to a running campaign, not the campaign itself.
        var changeRejected: Bool
        var pendingChange: Bool
        var blocking: [Finding]
        var warnings: [Finding]
        var hasFindings: Bool
        var card: OfferCard
        var details: [Detail]
        var editable: Bool
        var submittable: Bool
        var pausable: Bool
        var resumable: Bool
        var pushable: Bool
        /// Whether any button applies (an ended campaign has none).
        var hasActions: Bool
        var chart: DayChart?
        var totals: [Detail]
    }

    /// A bar chart of deliveries per day; a withheld day draws a flat grey bar.
    struct DayChart: Sendable {
        struct Bar: Sendable {
            var x: Int
            var y: Int
            var width: Int
            var height: Int
            var label: String
            var shown: Bool
        }

        struct Tick: Sendable {
            var x: Int
            var text: String
        }

        static let width = 336
        static let height = 140
        var bars: [Bar]
        var ticks: [Tick]

        init(days: [CampaignDayStats], reader: Reader) {
            let peak = max(1, days.compactMap(\.delivered).max() ?? 1)
            let slot = max(1, Self.width / max(1, days.count))
            let names = days.map { Self.dayName($0.date ?? "", reader: reader) }
            bars = days.enumerated().map { index, day in
                let count = day.delivered
                let height = count.map { max(2, Int(Double(Self.height - 20) * Double($0) / Double(peak))) } ?? 4
                return Bar(
                    x: index * slot,
                    y: Self.height - 20 - height,
                    width: max(1, min(22, slot - 2)),
                    height: height,
                    label: names[index] + ": "
                        + (count.map { reader.count($0, "count.delivered") } ?? say("fewer than 5 delivered")),
                    shown: count != nil
                )
            }
            // About six dates under the bars, however many days there are.
            let every = max(1, Int((Double(days.count) / 6).rounded(.up)))
            ticks = stride(from: 0, to: days.count, by: every).map { Tick(x: $0 * slot, text: names[$0]) }
        }

        /// "24 Nov" for `2026-11-24`, in the reader's language.
        static func dayName(_ day: String, reader: Reader) -> String {
            let parts = day.split(separator: "-").compactMap { Int($0) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            guard parts.count == 3,
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
            else {
                return day
            }
            return date.formatted(Date.FormatStyle(locale: reader.locale, timeZone: .gmt).day().month(.abbreviated))
        }
    }

    /// What the campaign is, line by line, in the reader's words.
    static func details(_ campaign: Campaign, reader: Reader) -> [Detail] {
        let content = campaign.content
        var rows = [
            Detail(
                label: say("Runs"),
                value: say(
                    "{start} to {end}",
                    ["start": reader.full(content.startsAt), "end": reader.full(content.endsAt)]
                )
            )
        ]
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = reader.locale
        for slot in content.schedule ?? [] {
            let days = slot.weekdays.map { calendar.shortWeekdaySymbols[$0 % 7] }.joined(separator: ", ")
            rows.append(Detail(label: say("Hours"), value: "\(days), \(slot.from)–\(slot.until)"))
        }
        let target = content.target
        let who = audience(target, reader: reader)
        rows.append(
            Detail(label: say("For"), value: who.isEmpty ? say("Everyone nearby") : who.joined(separator: ", "))
        )
        rows.append(
            Detail(
                label: say("Within"),
                value: reader.distance(Double(target.radiusMeters ?? CampaignRules.defaultRadiusMeters))
            )
        )
        let automatic = content.delivery.contains(.automatic)
        let manual = content.delivery.contains { $0 != .automatic }
        let ways =
            automatic && manual
            ? (content.delivery.first == .automatic
                ? say("automatically nearby and pushed by staff in the shop")
                : say("pushed by staff in the shop and automatically nearby"))
            : automatic ? say("automatically nearby") : manual ? say("pushed by staff in the shop") : ""
        rows.append(Detail(label: say("Delivered"), value: ways))
        if content.kind == .coupon {
            rows.append(Detail(label: say("Claims"), value: claimed(campaign, reader: reader)))
            if let each = content.perCustomer {
                rows.append(Detail(label: say("Per customer"), value: reader.count(each, "count.coupon")))
            }
            if let code = content.code { rows.append(Detail(label: say("Printed code"), value: code)) }
        }
        return rows
    }

    /// Who a campaign is for, in the reader's words (PlazaCore's `CampaignWords.audience` is English).
    static func audience(_ target: CampaignTarget, reader: Reader) -> [String] {
        var who: [String] = []
        switch (target.ageMin, target.ageMax) {
        case (let low?, let high?): who.append(say("aged {low}–{high}", ["low": String(low), "high": String(high)]))
        case (let low?, nil): who.append(say("aged {low} or over", ["low": String(low)]))
        case (nil, let high?): who.append(say("aged up to {high}", ["high": String(high)]))
        case (nil, nil): break
        }
        if let genders = target.genders, !genders.isEmpty {
            let names = genders.map { gender -> String in
                switch gender {
                case .female: say("women")
                case .male: say("men")
                case .other: say("people of another gender")
                }
            }
            who.append(names.joined(separator: say(" or ")))
        }
        if target.studentsOnly == true { who.append(say("students")) }
        if target.subscribersOnly == true { who.append(say("subscribers of the business")) }
        if let days = target.pastCustomers {
            who.append(reader.count(days, "count.paid_here_in_the_last_days"))
        }
        return who
    }

    @Sendable func campaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "campaign")
        let campaign = try await offers.campaign(context.identity, id)
        let stats = try await offers.stats(context.identity, id)
        let reader = context.reader
        let query = request.uri.queryParameters
        let notice = query.get("notice").flatMap { key -> String? in
            guard key == "pushed" else { return Self.notices[key].map { say($0) } }
            let (sent, present) = (Int(query.get("sent") ?? "") ?? 0, Int(query.get("present") ?? "") ?? 0)
            return reader.count(
                present,
                "count.sent_to_customers_in_the_shop",
                ["sent": sent.formatted(.number.locale(reader.locale))]
            )
        }
        let state = campaign.state
        let content = campaign.content
        func count(_ value: Int?) -> String {
            value.map { $0.formatted(.number.locale(reader.locale)) } ?? say("fewer than 5")
        }
        var totals = [
            Detail(label: say("Delivered"), value: count(stats.totals.delivered)),
            Detail(label: say("Opened"), value: count(stats.totals.opened)),
        ]
        if content.kind == .coupon {
            totals += [
                Detail(label: say("Claimed"), value: count(stats.totals.claimed)),
                Detail(label: say("Redeemed"), value: count(stats.totals.redeemed)),
                Detail(
                    label: say("Discount given"),
                    value: stats.totals.discountGiven.map { reader.money($0, stats.currency) }
                        ?? say("not shown: fewer than 5 redemptions")
                ),
            ]
        }
        let model = CampaignPage(
            shell: Shell(title: content.title, context: context, notice: notice),
            id: id.uuidString.lowercased(),
            businessId: campaign.businessId.uuidString.lowercased(),
            business: campaign.businessName,
            title: content.title,
            kind: content.kind == .coupon ? say("Coupon") : say("Ad"),
            state: Self.stateName(state),
            stateCode: Self.stateCode(state),
            rejectionReason: campaign.rejectionReason,
            stopped: campaign.stoppedAt.map {
                say(
                    "Stopped by Plaza on {when}: {reason}",
                    ["when": reader.full($0), "reason": campaign.stopReason ?? ""]
                )
            },
            changeRejected: state != .rejected,
            pendingChange: campaign.pendingChange,
            blocking: campaign.findings.filter { $0.severity == .block }.map {
                Finding(message: PageLanguage.say($0.message))
            },
            warnings: campaign.findings.filter { $0.severity == .warn }.map {
                Finding(message: PageLanguage.say($0.message))
            },
            // Once ended, nothing is submitted again: what the check found no longer matters.
            hasFindings: !campaign.findings.isEmpty && state != .ended,
            card: Self.card(content, business: campaign.businessName, reader: reader),
            details: Self.details(campaign, reader: reader),
            editable: state != .ended,
            submittable: state == .draft || state == .rejected,
            pausable: state == .active,
            resumable: state == .paused,
            pushable: state == .active && content.delivery.contains(.manual),
            hasActions: state != .ended,
            chart: stats.days.isEmpty ? nil : DayChart(days: stats.days, reader: reader),
            totals: totals
        )
        return renderer.render("offers/campaign", model)
    }
}
