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
        if let spend = content.minimumSpend { terms.append("On a spend of \(reader.money(spend)) or more") }
        if let cap = content.maxDiscount { terms.append("at most \(reader.money(cap)) off") }
        return OfferCard(
            business: business,
            title: content.title,
            body: content.body,
            discount: content.discount.flatMap { discountWords($0, reader: reader) },
            terms: terms.isEmpty ? nil : terms.joined(separator: ", "),
            ends: "Ends on \(reader.full(content.endsAt))"
        )
    }

    /// "10 % off", "$1.50 off".
    static func discountWords(_ discount: CouponDiscount, reader: Reader) -> String? {
        if let percent = discount.percentOff { return "\(percent) % off" }
        return discount.money.map { "\(reader.money($0)) off" }
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
                    label:
                        "\(names[index]): \(count.map { reader.count($0, "delivered", "delivered") } ?? "fewer than 5 delivered")",
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
        var rows = [Detail(label: "Runs", value: "\(reader.full(content.startsAt)) to \(reader.full(content.endsAt))")]
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = reader.locale
        for slot in content.schedule ?? [] {
            let days = slot.weekdays.map { calendar.shortWeekdaySymbols[$0 % 7] }.joined(separator: ", ")
            rows.append(Detail(label: "Hours", value: "\(days), \(slot.from)–\(slot.until)"))
        }
        let target = content.target
        let who = CampaignWords.audience(target)
        rows.append(Detail(label: "For", value: who.isEmpty ? "Everyone nearby" : who.joined(separator: ", ")))
        rows.append(
            Detail(
                label: "Within",
                value: reader.distance(Double(target.radiusMeters ?? CampaignRules.defaultRadiusMeters))
            )
        )
        let ways = content.delivery.map { $0 == .automatic ? "automatically nearby" : "pushed by staff in the shop" }
        rows.append(Detail(label: "Delivered", value: ways.joined(separator: " and ")))
        if content.kind == .coupon {
            rows.append(Detail(label: "Claims", value: claimed(campaign, reader: reader)))
            if let each = content.perCustomer {
                rows.append(Detail(label: "Per customer", value: reader.count(each, "coupon", "coupons")))
            }
            if let code = content.code { rows.append(Detail(label: "Printed code", value: code)) }
        }
        return rows
    }

    @Sendable func campaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "campaign")
        let campaign = try await offers.campaign(context.identity, id)
        let stats = try await offers.stats(context.identity, id)
        let reader = context.reader
        let query = request.uri.queryParameters
        let notice = query.get("notice").flatMap { key -> String? in
            guard key == "pushed" else { return Self.notices[key] }
            let (sent, present) = (Int(query.get("sent") ?? "") ?? 0, Int(query.get("present") ?? "") ?? 0)
            return
                "Sent to \(sent.formatted(.number.locale(reader.locale))) of the \(reader.count(present, "customer", "customers")) in the shop."
        }
        let state = campaign.state
        let content = campaign.content
        func count(_ value: Int?) -> String {
            value.map { $0.formatted(.number.locale(reader.locale)) } ?? "fewer than 5"
        }
        var totals = [
            Detail(label: "Delivered", value: count(stats.totals.delivered)),
            Detail(label: "Opened", value: count(stats.totals.opened)),
        ]
        if content.kind == .coupon {
            totals += [
                Detail(label: "Claimed", value: count(stats.totals.claimed)),
                Detail(label: "Redeemed", value: count(stats.totals.redeemed)),
                Detail(
                    label: "Discount given",
                    value: stats.totals.discountGiven.map { reader.money($0, stats.currency) }
                        ?? "not shown: fewer than 5 redemptions"
                ),
            ]
        }
        let model = CampaignPage(
            shell: Shell(title: content.title, context: context, notice: notice),
            id: id.uuidString.lowercased(),
            businessId: campaign.businessId.uuidString.lowercased(),
            business: campaign.businessName,
            title: content.title,
            kind: content.kind == .coupon ? "Coupon" : "Ad",
            state: Self.stateName(state),
            rejectionReason: campaign.rejectionReason,
            stopped: campaign.stoppedAt.map { "Stopped by Plaza on \(reader.full($0)): \(campaign.stopReason ?? "")" },
            changeRejected: state != .rejected,
            pendingChange: campaign.pendingChange,
            blocking: campaign.findings.filter { $0.severity == .block }.map { Finding(message: $0.message) },
            warnings: campaign.findings.filter { $0.severity == .warn }.map { Finding(message: $0.message) },
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
