import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// The counter (`/loyalty/counter/{businessId}`): the rotating QR, a customer's code to punch or redeem, what happened
/// just now (live), and the owner's programs.
extension LoyaltyPages {
    // MARK: Counter

    struct ProgramRow: Sendable {
        var id: String
        var title: String
        var detail: String
        var state: String
        var selected: Bool
        var active: Bool
        var paused: Bool
    }

    struct LocationChoice: Sendable {
        var id: String
        var name: String
        var selected: Bool
    }

    struct CounterPage: Sendable {
        var shell: Shell
        var id: String
        var name: String
        var owner: Bool
        /// The current signing key's id, for the owner's "rotate" section.
        var keyId: String?
        var programs: [ProgramRow]
        /// The running programs, when staff may switch the code between them.
        var programChoices: [LocationChoice]
        var manyPrograms: Bool
        var locations: [LocationChoice]
        var token: TokenView?
        var tokenURL: String?
        var manyLocations: Bool
        /// A location or program to switch the code to.
        var switchable: Bool
        /// Why no code shows though programs run: the merchant waits for an admin, or the business has no location.
        var waiting: String?
        var locationId: String
        /// The program the QR is of, kept across the customer-code form.
        var programId: String
        var codeForm: FormState
        var activity: ActivityList
        var programForm: FormState
    }

    struct TokenView: Sendable {
        /// Markup made by `QRCode` from the signed token (never user text).
        var qr: String
        var code: String
        var program: String
    }

    @Sendable func counter(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let query = request.uri.queryParameters
        let business = try await loyalty.businesses.business(id, viewer: context.identity)
        guard business.role != nil else { throw PlazaError.forbidden }
        let programs = try await loyalty.programs(business: id, viewer: context.identity)
        let running = programs.filter { $0.state == .active }
        let program =
            running.first { $0.id.uuidString.lowercased() == query.get("program")?.lowercased() } ?? running.first
        let location =
            business.locations.first { $0.id.uuidString.lowercased() == query.get("location")?.lowercased() }
            ?? business.locations.first
        var token: TokenView?
        var tokenURL: String?
        if let program, let location, business.listed {
            token = try await tokenView(context, business: id, program: program, location: location.id)
            tokenURL =
                "/loyalty/counter/\(id.uuidString.lowercased())/token?program=\(program.id.uuidString.lowercased())&location=\(location.id.uuidString.lowercased())"
        }
        let model = CounterPage(
            shell: Shell(
                title: say("Loyalty counter"),
                context: context,
                notice: query.get("notice").flatMap { Self.notices[$0].map { say($0) } ?? Self.counterNotice($0) }
            ),
            id: id.uuidString.lowercased(),
            name: business.name,
            owner: business.role == .owner,
            keyId: programs.first?.signingKeys.first { $0.retiredAt == nil }?.keyId,
            programs: programs.map {
                ProgramRow(
                    id: $0.id.uuidString.lowercased(),
                    title: $0.title,
                    detail: Self.programDetail($0, reader: context.reader),
                    state: Self.programStateName($0.state),
                    selected: $0.id == program?.id,
                    active: $0.state == .active,
                    paused: $0.state == .paused
                )
            },
            programChoices: running.count < 2
                ? []
                : running.map {
                    LocationChoice(id: $0.id.uuidString.lowercased(), name: $0.title, selected: $0.id == program?.id)
                },
            manyPrograms: running.count > 1,
            locations: business.locations.map {
                LocationChoice(id: $0.id.uuidString.lowercased(), name: $0.name, selected: $0.id == location?.id)
            },
            token: token,
            tokenURL: tokenURL,
            manyLocations: business.locations.count > 1,
            switchable: business.locations.count > 1 || running.count > 1,
            waiting: running.isEmpty || token != nil
                ? nil
                : !business.listed
                    ? say("Codes show here once an admin approves your business; customers cannot find it until then.")
                    : say("Add a location to the business (Edit) to show codes at its counter."),
            locationId: location?.id.uuidString.lowercased() ?? "",
            programId: program?.id.uuidString.lowercased() ?? "",
            codeForm: context.page.form("code") ?? FormState(names: ["code", "count"]),
            activity: try await activity(id, context: context),
            programForm: context.page.form("program") ?? Self.newProgramForm
        )
        return renderer.render("loyalty/counter", model)
    }

    /// "Reward after 10 punches: A coffee. Paying punches the card (one per $5.00)."
    static func programDetail(_ program: LoyaltyProgram, reader: Reader) -> String {
        let reward = say(
            "Reward after {punches}: {reward}.",
            ["punches": reader.count(program.punchesRequired, "count.punch"), "reward": program.reward]
        )
        guard program.earnOnPayment else { return reward }
        switch program.punchesPerPurchase {
        case .one: return reward + " " + say("Paying with Plaza punches the card.")
        case .per(let unit):
            return reward + " "
                + say("Paying with Plaza punches the card, one per {amount}.", ["amount": reader.money(unit)])
        }
    }

    /// A program's state as its merchant reads it.
    static func programStateName(_ state: LoyaltyProgramState) -> String {
        switch state {
        case .active: say("Active")
        case .paused: say("Paused")
        case .expired: say("Ended")
        }
    }

    /// "Redeemed: A coffee for @anna." or "Punched @anna's Coffee card: +2, now 3 of 10.", from the notice key
    /// `redeemed|<reward>|<username>` or `punched|<title>|<username>|<added>|<progress>` (all escaped by the page).
    static func counterNotice(_ key: String) -> String? {
        let parts = key.split(separator: "|", maxSplits: 4)
        switch parts.first {
        case "redeemed" where parts.count == 3:
            return say(
                "Redeemed: {reward} for @{username}.",
                ["reward": String(parts[1]), "username": String(parts[2])]
            )
        case "punched" where parts.count == 5:
            // The progress was written "3 of 10" by the counter's POST.
            let progress = parts[4].components(separatedBy: " of ")
            return say(
                "Punched @{username}'s {title}: +{added}, now {progress}.",
                [
                    "username": String(parts[2]), "title": String(parts[1]), "added": String(parts[3]),
                    "progress": progress.count == 2
                        ? say("{punches} of {required}", ["punches": progress[0], "required": progress[1]])
                        : String(parts[4]),
                ]
            )
        default: return nil
        }
    }

    func tokenView(
        _ context: AuthenticatedContext,
        business: UUID,
        program: LoyaltyProgram,
        location: UUID
    ) async throws -> TokenView {
        let token = try await loyalty.punchToken(
            context.identity,
            business: business,
            program: program.id,
            location: location
        )
        return TokenView(qr: QRCode(token.token)?.svg(scale: 3) ?? "", code: token.code, program: program.title)
    }

    /// The live part of the counter: a new token, fetched by the page script every 30 seconds.
    @Sendable func tokenFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let query = request.uri.queryParameters
        guard let programID = query.get("program").flatMap(UUID.init(uuidString:)),
            let location = query.get("location").flatMap(UUID.init(uuidString:))
        else { throw PlazaError.notFound("program") }
        let program = try await loyalty.program(programID, viewer: context.identity)
        return renderer.render(
            "loyalty/token",
            try await tokenView(context, business: id, program: program, location: location)
        )
    }

    /// Owners: a new signing key (a lost tablet's codes stop being made; those already scanned count for the grace).
    @Sendable func rotateKey(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        _ = try await loyalty.rotateKey(context.identity, business: id)
        return PageRenderer.seeOther("/loyalty/counter/\(id.uuidString.lowercased())?notice=rotated#signing-key")
    }

    /// A code the customer shows, typed or scanned: their card's punch code punches it, a full card's redeem code
    /// gives its reward.
    @Sendable func customerCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let path = "/loyalty/counter/\(id.uuidString.lowercased())"
        guard let location = UUID(uuidString: form["locationId"]) else {
            return renderer.refused(alert: say("Add a location to the business first."), returnTo: path)
        }
        let count = form["count"].trimmingCharacters(in: .whitespaces)
        let request = CounterPunchRequest(code: form["code"], locationId: location, count: Int(count))
        do {
            if !count.isEmpty, Int(count) == nil {
                throw PlazaError.validation(field: "count", phrase("Type how many punches, as a number."))
            }
            let notice: String
            if let punched = try await punchOrNil(context, business: id, request) {
                if let reason = punched.reason {
                    throw PlazaError.validation(
                        field: "code",
                        say(
                            "@{username}: {reason}",
                            ["username": punched.customer, "reason": say(Self.counterSentence(reason))]
                        )
                    )
                }
                notice =
                    "punched|\(punched.card.title)|\(punched.customer)|\(punched.punchesAdded)|\(punched.card.punches) of \(punched.card.punchesRequired)"
            } else {
                let redemption = RedemptionRequest(code: request.code, locationId: location)
                let done = try await loyalty.redeem(context.identity, business: id, redemption)
                notice = "redeemed|\(done.reward)|\(done.customer)"
            }
            let program = UUID(uuidString: form["program"]).map { "program=\($0.uuidString.lowercased())&" } ?? ""
            let escaped = notice.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return PageRenderer.seeOther(
                "\(path)?\(program)location=\(location.uuidString.lowercased())&notice=\(escaped)"
            )
        } catch let error as PlazaError
            where error.status.code < 500 && error.status != .forbidden && error.status != .notFound
        {
            return renderer.refused(
                "code",
                FormState(form, names: ["code", "count"], error: error),
                returnTo: "\(path)#customer-code"
            )
        }
    }

    /// The punch of a customer's punch code; nil when the code is none (a redeem code, say).
    private func punchOrNil(
        _ context: AuthenticatedContext,
        business: UUID,
        _ request: CounterPunchRequest
    ) async throws -> CounterPunch? {
        guard !request.code.trimmingCharacters(in: .whitespaces).hasPrefix(LoyaltyRules.redeemPrefix) else {
            return nil
        }
        do {
            return try await loyalty.punchCustomer(context.identity, business: business, request)
        } catch let error as PlazaError
            where error.code == .invalidCode && !request.code.hasPrefix(LoyaltyRules.punchPrefix)
        {
            return nil
        }
    }

    static func counterSentence(_ reason: PunchRefusal) -> String {
        switch reason {
        case .tooSoon: phrase("got a punch a moment ago: one per visit.")
        case .cardNotActive: phrase("this card takes no more punches.")
        default: phrase("this punch cannot be counted.")
        }
    }

    struct ActivityRow: Sendable {
        var customer: String
        var what: String
        var when: String
    }

    struct ActivityList: Sendable {
        var rows: [ActivityRow]
    }

    /// The counter's "just now" list, fetched again by the page script when a loyalty event arrives.
    @Sendable func activityFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render(
            "loyalty/activity",
            try await activity(try Query.id(context.parameters, "id", "business"), context: context)
        )
    }

    func activity(_ business: UUID, context: AuthenticatedContext) async throws -> ActivityList {
        let reader = context.reader
        let items = try await loyalty.counterActivity(
            context.identity,
            business: business,
            since: Date().addingTimeInterval(-12 * 3_600)
        )
        return ActivityList(
            rows: items.map { item in
                var values = [
                    "added": reader.count(item.added ?? 1, "count.punch"), "title": item.title,
                    "required": String(item.punchesRequired ?? 0),
                ]
                if let punches = item.punches { values["punches"] = String(punches) }
                let now = item.punches != nil
                let what =
                    switch item.kind {
                    case .punched:
                        now
                            ? say("+{added} on {title}, now {punches} of {required}", values)
                            : say("+{added} on {title}", values)
                    case .paid:
                        now
                            ? say("+{added} on {title} by paying, now {punches} of {required}", values)
                            : say("+{added} on {title} by paying", values)
                    case .redeemed: say("redeemed {reward}", ["reward": item.reward ?? ""])
                    }
                return ActivityRow(customer: item.customer, what: what, when: reader.when(item.at))
            }
        )
    }
}
