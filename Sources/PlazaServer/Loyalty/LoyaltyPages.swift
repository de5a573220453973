import Foundation
import Hummingbird
import PlazaCore

/// The loyalty pages: a customer's cards (`/loyalty`) and each card, where a typed counter code punches it and a full
/// card shows its redeem code; the counter (`/loyalty/counter/{businessId}`) with the rotating QR and the redeem form;
/// a new program. Every action is the API's, through `LoyaltyService`.
struct LoyaltyPages: Sendable {
    let loyalty: LoyaltyService
    let renderer: PageRenderer
    let maxBody: Int

    static let notices = [
        "taken": "The card is yours. Scan the counter's code, or type its six digits here, with each purchase.",
        "program": "The program is running. Show this counter's code to customers with each purchase.",
        "paused": "The program is paused: no new cards or punches until you resume it.",
        "resumed": "The program runs again.",
        "ended": "The program has ended; its open cards expired and their holders were told.",
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("loyalty", context: AuthenticatedContext.self)
        signedIn.get("", use: cards)
        signedIn.get("cards/:id", use: card)
        signedIn.post("cards/:id/punch", use: punch)
        signedIn.post("cards/:id/redeem-code", use: redeemCode)
        signedIn.post("programs/:id/cards", use: takeCard)
        signedIn.get("counter/:id", use: counter)
        signedIn.get("counter/:id/token", use: tokenFragment)
        signedIn.post("counter/:id/redeem", use: redeem)
        signedIn.post("counter/:id/programs", use: createProgram)
        signedIn.post("programs/:id/state", use: changeState)
    }

    // MARK: Cards

    struct CardRow: Sendable {
        var id: String
        var business: String
        var title: String
        var reward: String
        var progress: String
        var dots: [Dot]
        var full: Bool
        var state: String
        var expiry: String?
    }

    struct Dot: Sendable {
        var filled: Bool
    }

    struct CardsPage: Sendable {
        var shell: Shell
        var rows: [CardRow]
        var history: Bool
        var next: String?
    }

    static func row(_ card: LoyaltyCard, reader: Reader) -> CardRow {
        CardRow(
            id: card.id.uuidString.lowercased(), business: card.businessName, title: card.title, reward: card.reward,
            progress: "\(card.punches) of \(card.punchesRequired)", dots: (0..<card.punchesRequired).map { Dot(filled: $0 < card.punches) },
            full: card.state == .completed, state: card.state.rawValue.capitalized,
            expiry: card.state == .active && card.punches > 0
                ? card.expiresAt.map { "\(reader.count(card.punches, "punch expires", "punches expire")) on \(reader.day($0))" } : nil)
    }

    @Sendable func cards(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let history = request.uri.queryParameters.get("view") == "history"
        let page = try await loyalty.cards(
            context.identity, view: history ? .history : .current, limit: 50, cursor: request.uri.queryParameters.get("cursor"))
        let model = CardsPage(
            shell: Shell(title: "Loyalty cards", context: context), rows: page.items.map { Self.row($0, reader: context.reader) }, history: history,
            next: page.nextCursor.map { "/loyalty?view=\(history ? "history" : "current")&cursor=\($0)" })
        return renderer.render("loyalty/cards", model)
    }

    struct PunchRow: Sendable {
        var when: String
        var place: String
    }

    struct CardPage: Sendable {
        var shell: Shell
        var card: CardRow
        var active: Bool
        var punches: [PunchRow]
        var redemption: String?
        var redeem: RedeemView?
        var punchForm: FormState
    }

    struct RedeemView: Sendable {
        var code: String
        /// Markup made by `QRCode` from Plaza's own payload (never user text): the one unescaped value.
        var qr: String
        var until: String
    }

    @Sendable func card(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "card")
        let detail = try await loyalty.card(context.identity, id)
        let reader = context.reader
        var redeem: RedeemView?
        if detail.card.state == .completed, let code = request.uri.queryParameters.get("redeem"),
            let live = try await loyalty.liveRedeemCode(code, card: id)
        {
            redeem = RedeemView(code: live.code, qr: QRCode(live.qrPayload)?.svg(scale: 4) ?? "", until: reader.time(live.expiresAt))
        }
        let notice = request.uri.queryParameters.get("notice").flatMap { key -> String? in
            key == "punched" ? "Punch counted: \(detail.card.punches) of \(detail.card.punchesRequired)." : Self.notices[key]
        }
        let model = CardPage(
            shell: Shell(title: detail.card.title, context: context, notice: notice), card: Self.row(detail.card, reader: reader),
            active: detail.card.state == .active,
            punches: detail.punches.reversed().map { PunchRow(when: reader.when($0.countedAt), place: $0.locationName) },
            redemption: detail.redemption.map { "Redeemed \(reader.when($0.redeemedAt)), confirmed by @\($0.redeemedBy)" }, redeem: redeem,
            punchForm: context.page.form("punch") ?? FormState(names: ["code"]))
        return renderer.render("loyalty/card", model)
    }

    /// The six digits the counter shows, typed in: counted at once (a scan would go through the app's queue).
    @Sendable func punch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "card")
        let code = form["code"].filter(\.isNumber)
        let path = "/loyalty/cards/\(id.uuidString.lowercased())"
        guard code.count == 6 else {
            return renderer.refused(
                "punch", FormState(form, names: ["code"], error: .validation(field: "code", "Type the six digits the counter shows.")),
                returnTo: "\(path)#punch")
        }
        let result = try await loyalty.sync(context.identity, PunchBatch(punches: [PunchSubmission(cardId: id, code: code)]))
        if let reason = result.results.first?.reason {
            return renderer.refused(
                "punch", FormState(form, names: ["code"], error: .validation(field: "code", Self.sentence(reason))), returnTo: "\(path)#punch")
        }
        // A full card moves on to the next level's: show the one just filled, with its reward.
        return PageRenderer.seeOther("\(path)?notice=punched")
    }

    static func sentence(_ reason: PunchRefusal) -> String {
        switch reason {
        case .invalidCode, .malformed: "These digits are not the counter's code now: type the six digits it shows."
        case .tooSoon: "You got a punch here a moment ago: one per visit."
        case .replayed: "This code counted for you already: wait for the next one."
        case .cardNotActive: "This card takes no more punches."
        case .expired: "This code has expired: type the one the counter shows now."
        case .wrongProgram: "This code is for another card."
        case .notFound, .invalidSignature, .idReused: "This code cannot be counted."
        }
    }

    @Sendable func redeemCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "card")
        let code = try await loyalty.redeemCode(context.identity, card: id)
        return PageRenderer.seeOther("/loyalty/cards/\(id.uuidString.lowercased())?redeem=\(code.code)#redeem")
    }

    @Sendable func takeCard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let program = try Query.id(context.parameters, "id", "program")
        do {
            let card = try await loyalty.takeCard(context.identity, program: program)
            return PageRenderer.seeOther("/loyalty/cards/\(card.id.uuidString.lowercased())?notice=taken")
        } catch let error as PlazaError where error.status == .conflict {
            let business = try await loyalty.program(program, viewer: context.identity).businessId
            return renderer.refused(alert: error.sentence, returnTo: "/places/businesses/\(business.uuidString.lowercased())")
        }
    }

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
        var programs: [ProgramRow]
        var locations: [LocationChoice]
        var token: TokenView?
        var tokenURL: String?
        var manyLocations: Bool
        /// Why no code shows though programs run: the merchant waits for an admin, or the business has no location.
        var waiting: String?
        var locationId: String
        var redeemForm: FormState
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
        let business = try await loyalty.places.business(id, viewer: context.identity)
        guard business.role != nil else { throw PlazaError.forbidden }
        let programs = try await loyalty.programs(business: id, viewer: context.identity)
        let running = programs.filter { $0.state == .active }
        let program = running.first { $0.id.uuidString.lowercased() == query.get("program")?.lowercased() } ?? running.first
        let location = business.locations.first { $0.id.uuidString.lowercased() == query.get("location")?.lowercased() } ?? business.locations.first
        var token: TokenView?
        var tokenURL: String?
        if let program, let location, business.listed {
            token = try await tokenView(context, business: id, program: program, location: location.id)
            tokenURL =
                "/loyalty/counter/\(id.uuidString.lowercased())/token?program=\(program.id.uuidString.lowercased())&location=\(location.id.uuidString.lowercased())"
        }
        let model = CounterPage(
            shell: Shell(title: "Loyalty counter", context: context, notice: query.get("notice").flatMap { Self.notices[$0] ?? Self.redeemed($0) }),
            id: id.uuidString.lowercased(), name: business.name, owner: business.role == .owner,
            programs: programs.map {
                ProgramRow(
                    id: $0.id.uuidString.lowercased(), title: $0.title,
                    detail: "\(context.reader.count($0.punchesRequired, "punch", "punches")) for \($0.reward)", state: $0.state.rawValue.capitalized,
                    selected: $0.id == program?.id, active: $0.state == .active, paused: $0.state == .paused)
            },
            locations: business.locations.map { LocationChoice(id: $0.id.uuidString.lowercased(), name: $0.name, selected: $0.id == location?.id) },
            token: token, tokenURL: tokenURL, manyLocations: business.locations.count > 1,
            waiting: running.isEmpty || token != nil
                ? nil
                : !business.listed
                    ? "Codes show here once an admin approves your business; customers cannot find it until then."
                    : "Add a location to the business (Edit) to show codes at its counter.",
            locationId: location?.id.uuidString.lowercased() ?? "",
            redeemForm: context.page.form("redeem") ?? FormState(names: ["code"]),
            programForm: context.page.form("program")
                ?? FormState(names: ["title", "punchesRequired", "reward", "description", "velocityWindowMinutes"]).with(
                    "velocityWindowMinutes", "10"))
        return renderer.render("loyalty/counter", model)
    }

    /// "Redeemed: A coffee for @anna", from the notice key `redeemed:<reward>:<username>` (both escaped by the page).
    static func redeemed(_ key: String) -> String? {
        let parts = key.split(separator: "|", maxSplits: 2)
        guard parts.count == 3, parts[0] == "redeemed" else { return nil }
        return "Redeemed: \(parts[1]) for @\(parts[2])."
    }

    func tokenView(_ context: AuthenticatedContext, business: UUID, program: LoyaltyProgram, location: UUID) async throws -> TokenView {
        let token = try await loyalty.punchToken(context.identity, business: business, program: program.id, location: location)
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
        return renderer.render("loyalty/token", try await tokenView(context, business: id, program: program, location: location))
    }

    @Sendable func redeem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let path = "/loyalty/counter/\(id.uuidString.lowercased())"
        guard let location = UUID(uuidString: form["locationId"]) else {
            return renderer.refused(alert: "Add a location to the business first.", returnTo: path)
        }
        do {
            let done = try await loyalty.redeem(context.identity, business: id, RedemptionRequest(code: form["code"], locationId: location))
            let notice = "redeemed|\(done.reward)|\(done.customer)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return PageRenderer.seeOther("\(path)?notice=\(notice)")
        } catch let error as PlazaError where error.status.code < 500 && error.status != .forbidden && error.status != .notFound {
            return renderer.refused("redeem", FormState(form, names: ["code"], error: error), returnTo: "\(path)#redeem")
        }
    }

    @Sendable func createProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let path = "/loyalty/counter/\(id.uuidString.lowercased())"
        let names = ["title", "punchesRequired", "reward", "description", "velocityWindowMinutes"]
        do {
            let program = try await loyalty.createProgram(
                context.identity, business: id,
                LoyaltyProgramRequest(
                    title: form["title"], description: form["description"], punchesRequired: Int(form["punchesRequired"]) ?? 0,
                    reward: form["reward"],
                    velocityWindowMinutes: form["velocityWindowMinutes"].isEmpty ? nil : Int(form["velocityWindowMinutes"]) ?? -1))
            return PageRenderer.seeOther("\(path)?program=\(program.id.uuidString.lowercased())&notice=program")
        } catch let error as PlazaError where error.status.code < 500 && error.status != .forbidden && error.status != .notFound {
            return renderer.refused("program", FormState(form, names: names, error: error), returnTo: "\(path)#new-program")
        }
    }

    @Sendable func changeState(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "program")
        guard let state = LoyaltyProgramState(rawValue: form["state"]) else { throw PlazaError.validation(field: "state", "Pick a state.") }
        let program = try await loyalty.changeProgram(context.identity, id, LoyaltyProgramChange(state: state))
        let notice = ["paused": "paused", "active": "resumed", "expired": "ended"][state.rawValue] ?? ""
        return PageRenderer.seeOther("/loyalty/counter/\(program.businessId.uuidString.lowercased())?notice=\(notice)")
    }
}
