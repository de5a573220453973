import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// The loyalty pages: a customer's cards (`/loyalty`) and each card, where a typed counter code punches it and a full
/// card shows its redeem code; the counter (`/loyalty/counter/{businessId}`) with the rotating QR and the redeem form;
/// a new program. Every action is the API's, through `LoyaltyService`.
struct LoyaltyPages: Sendable {
    let loyalty: LoyaltyService
    let renderer: PageRenderer
    let maxBody: Int
    /// The currency a minimum spend is typed in (the Plaza's first).
    let currency: String

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("loyalty", context: AuthenticatedContext.self)
        signedIn.get("", use: cards)
        signedIn.post("settings", use: saveSettings)
        signedIn.get("cards/:id", use: card)
        signedIn.get("cards/:id/live", use: cardFragment)
        signedIn.get("cards/:id/code", use: codeFragment)
        signedIn.post("cards/:id/punch", use: punch)
        signedIn.post("punches", use: syncPunches)
        signedIn.post("cards/:id/punch-code", use: punchCode)
        signedIn.post("cards/:id/sharing", use: setSharing)
        signedIn.get("cards/:id/apple-pass", use: applePass)
        signedIn.get("cards/:id/google-wallet", use: googleWallet)
        signedIn.post("cards/:id/redeem-code", use: redeemCode)
        signedIn.post("programs/:id/cards", use: takeCard)
        signedIn.get("counter/:id", use: counter)
        signedIn.get("counter/:id/token", use: tokenFragment)
        signedIn.get("counter/:id/activity", use: activityFragment)
        signedIn.get("counter/:id/figures", use: figures)
        signedIn.get("counter/:id/history.csv", use: historyCSV)
        signedIn.post("counter/:id/code", use: customerCode)
        signedIn.post("counter/:id/keys", use: rotateKey)
        signedIn.post("counter/:id/programs", use: createProgram)
        signedIn.post("programs/:id/state", use: changeState)
        signedIn.get("programs/:id/edit", use: editProgram)
        signedIn.post("programs/:id", use: updateProgram)
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
        /// The state in English for the page script (`data-card-state`): "Active", "Completed", …
        var stateCode: String
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
        /// Paying a shop may take its card for the reader.
        var cardOnPayment: Bool
    }

    static func row(_ card: LoyaltyCard, reader: Reader) -> CardRow {
        CardRow(
            id: card.id.uuidString.lowercased(),
            business: card.businessName,
            title: card.title,
            reward: card.reward,
            progress: say(
                "{punches} of {required}",
                ["punches": String(card.punches), "required": String(card.punchesRequired)]
            ),
            dots: (0..<card.punchesRequired).map { Dot(filled: $0 < card.punches) },
            full: card.state == .completed,
            state: stateName(card.state),
            stateCode: card.state.rawValue.capitalized,
            expiry: card.state == .active && card.punches > 0
                ? card.expiresAt.map {
                    reader.count(card.punches, "count.punches_expire_on", ["day": reader.day($0)])
                } : nil
        )
    }

    @Sendable func cards(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let history = request.uri.queryParameters.get("view") == "history"
        let page = try await loyalty.cards(
            context.identity,
            view: history ? .history : .current,
            limit: 50,
            cursor: request.uri.queryParameters.get("cursor")
        )
        let notice = request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }.map { say($0) }
        let model = CardsPage(
            shell: Shell(title: say("Loyalty cards"), context: context, notice: notice),
            rows: page.items.map { Self.row($0, reader: context.reader) },
            history: history,
            next: page.nextCursor.map { "/loyalty?view=\(history ? "history" : "current")&cursor=\($0)" },
            cardOnPayment: try await loyalty.settings(context.identity).cardOnPayment
        )
        return renderer.render("loyalty/cards", model)
    }

    /// The reader's loyalty settings: whether paying a shop with a program that punches on payment takes its card.
    @Sendable func saveSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let on = form["cardOnPayment"] == "1"
        _ = try await loyalty.setSettings(context.identity, LoyaltySettings(cardOnPayment: on))
        return PageRenderer.seeOther("/loyalty?notice=\(on ? "cardOnPayment" : "noCardOnPayment")#card-on-payment")
    }

    struct PunchRow: Sendable {
        var when: String
        var place: String
        /// "3 punches", when one visit gave several.
        var several: String?
    }

    /// The card's punches, newest first: those scanned or given at the counter and those paying earned ("+2 by paying
    /// PZ-7Q4K", issue 39: they were missing), in the order they happened.
    static func punchRows(_ detail: LoyaltyCardDetail, reader: Reader) -> [PunchRow] {
        let scanned = detail.punches.map {
            (
                at: min($0.scannedAt, $0.countedAt),
                row: PunchRow(
                    when: reader.when(min($0.scannedAt, $0.countedAt)),
                    place: $0.locationName,
                    several: $0.punches > 1 ? reader.count($0.punches, "count.punch") : nil
                )
            )
        }
        let paid = (detail.paymentPunches ?? []).map { earned in
            let values = [
                "punches": String(earned.punchesAdded), "reference": earned.reference,
                "back": String(earned.takenBack),
            ]
            return (
                at: earned.createdAt,
                row: PunchRow(
                    when: reader.when(earned.createdAt),
                    place: earned.takenBack > 0
                        ? say("+{punches} by paying {reference} ({back} taken back by a refund)", values)
                        : say("+{punches} by paying {reference}", values),
                    several: nil
                )
            )
        }
        // Newest first; of two at the same moment, the one listed later first.
        return (scanned + paid).enumerated().sorted { ($0.element.at, $0.offset) > ($1.element.at, $1.offset) }.map(
            \.element.row
        )
    }

    /// The part of a card's page that follows the events: the card, its reward, its punches.
    struct CardLive: Sendable {
        var card: CardRow
        var punches: [PunchRow]
        var redemption: String?
        var redeem: RedeemView?
        var csrf: String
        /// "Add to Apple Wallet" and "Save to Google Wallet", where this Plaza signs passes and the card still counts.
        var applePass: Bool
        var googlePass: Bool
    }

    struct CardPage: Sendable {
        var shell: Shell
        var live: CardLive
        /// The live part's own URL, with the redeem code the page shows (so a reload keeps showing it).
        var liveURL: String
        var active: Bool
        var showCode: Bool
        var code: CodeView?
        /// Whether the card's business may see the holder's own visits.
        var sharing: Bool
        var punchForm: FormState
        /// What the page script needs to keep a punch made offline (nil unless the card takes punches).
        var offline: OfflinePunches?
    }

    struct RedeemView: Sendable {
        var code: String
        /// Markup made by `QRCode` from Plaza's own payload (never user text): the one unescaped value.
        var qr: String
        var until: String
    }

    /// The card's own code for staff to scan, or why there is none now.
    struct CodeView: Sendable {
        var code: String?
        /// Markup made by `QRCode` from Plaza's own payload (never user text).
        var qr: String
        var message: String?
    }

    func live(_ id: UUID, _ request: Request, context: AuthenticatedContext) async throws -> (CardLive, LoyaltyCard) {
        let detail = try await loyalty.card(context.identity, id)
        let reader = context.reader
        var redeem: RedeemView?
        if detail.card.state == .completed, let code = request.uri.queryParameters.get("redeem"),
            let live = try await loyalty.liveRedeemCode(code, card: id)
        {
            redeem = RedeemView(
                code: live.code,
                qr: QRCode(live.qrPayload)?.svg(scale: 4) ?? "",
                until: reader.time(live.expiresAt)
            )
        }
        let live = CardLive(
            card: Self.row(detail.card, reader: reader),
            // When the customer scanned (offline scans count later); the server's clock judged the window.
            punches: Self.punchRows(detail, reader: reader),
            redemption: detail.redemption.map {
                say(
                    "Redeemed {when}, confirmed by @{username}",
                    ["when": reader.when($0.redeemedAt), "username": $0.redeemedBy]
                )
            },
            redeem: redeem,
            csrf: context.csrfToken ?? "",
            applePass: loyalty.offersApplePasses && (detail.card.state == .active || detail.card.state == .completed),
            googlePass: loyalty.offersGooglePasses && (detail.card.state == .active || detail.card.state == .completed)
        )
        return (live, detail.card)
    }

    @Sendable func card(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "card")
        let (live, card) = try await live(id, request, context: context)
        let state = card.state
        let notice = request.uri.queryParameters.get("notice").flatMap { key -> String? in
            key == "punched"
                ? say("Punch counted: {progress}.", ["progress": live.card.progress])
                : Self.notices[key].map { say($0) }
        }
        let showCode = state == .active && request.uri.queryParameters.get("show") == "code"
        let model = CardPage(
            shell: Shell(title: live.card.title, context: context, notice: notice),
            live: live,
            liveURL: "/loyalty/cards/\(live.card.id)/live" + (live.redeem.map { "?redeem=\($0.code)" } ?? ""),
            active: state == .active,
            showCode: showCode,
            code: showCode ? try await codeView(id, context: context) : nil,
            sharing: try await loyalty.sharing(context.identity, business: card.businessId),
            punchForm: context.page.form("punch") ?? FormState(names: ["code"]),
            offline: state == .active ? Self.offlinePunches(loyalty.offlineSealKey(context.identity)) : nil
        )
        return renderer.render("loyalty/card", model)
    }

    /// The live part of a card's page, fetched again by the page script when a loyalty event arrives.
    @Sendable func cardFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render(
            "loyalty/card-live",
            try await live(try Query.id(context.parameters, "id", "card"), request, context: context).0
        )
    }

    /// The card's own code: a new one each time (the page script asks every 30 seconds and after each punch).
    @Sendable func codeFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render(
            "loyalty/punch-code",
            try await codeView(try Query.id(context.parameters, "id", "card"), context: context)
        )
    }

    func codeView(_ card: UUID, context: AuthenticatedContext) async throws -> CodeView {
        do {
            let code = try await loyalty.punchCode(context.identity, card: card)
            return CodeView(code: code.code, qr: QRCode(code.qrPayload)?.svg(scale: 4) ?? "")
        } catch let error as PlazaError where error.code == .stateConflict {
            let message =
                switch error.currentState ?? "full" {
                case "completed": say("This card takes no more punches: it is completed.")
                case "redeemed": say("This card takes no more punches: it is redeemed.")
                case "expired": say("This card takes no more punches: it is expired.")
                case "active": say("This card takes no more punches: it is active.")
                default: say("This card takes no more punches: it is full.")
                }
            return CodeView(code: nil, qr: "", message: message)
        }
    }

    /// The card as an Apple Wallet pass, downloaded (Safari on an iPhone offers to add it).
    @Sendable func applePass(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pass = try await loyalty.applePass(context.identity, card: try Query.id(context.parameters, "id", "card"))
        return .download(pass, contentType: "application/vnd.apple.pkpass", filename: "plaza-loyalty-card.pkpass")
    }

    /// The card's "Save to Google Wallet" link, followed.
    @Sendable func googleWallet(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let link = try await loyalty.googleWalletLink(
            context.identity,
            card: try Query.id(context.parameters, "id", "card")
        )
        return PageRenderer.seeOther(link.saveUrl)
    }

    /// The holder lets the card's business see their own visits there, or stops.
    @Sendable func setSharing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "card")
        let card = try await loyalty.card(context.identity, id).card
        let share = form["share"] == "1"
        _ = try await loyalty.setSharing(context.identity, business: card.businessId, share: share)
        return PageRenderer.seeOther(
            "/loyalty/cards/\(id.uuidString.lowercased())?notice=\(share ? "shared" : "unshared")"
        )
    }

    @Sendable func punchCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "card")
        return PageRenderer.seeOther("/loyalty/cards/\(id.uuidString.lowercased())?show=code#scan-me")
    }

    /// The six digits the counter shows, typed in, or its QR read by the page's camera (`token`): counted at once (the
    /// SDK's apps keep scans in their offline queue instead).
    @Sendable func punch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "card")
        let code = form["code"].filter(\.isNumber)
        let path = "/loyalty/cards/\(id.uuidString.lowercased())"
        let scanned = form["token"].trimmingCharacters(in: .whitespacesAndNewlines)
        guard code.count == 6 || !scanned.isEmpty else {
            return renderer.refused(
                "punch",
                FormState(
                    form,
                    names: ["code"],
                    error: .validation(field: "code", phrase("Type the six digits the counter shows."))
                ),
                returnTo: "\(path)#punch"
            )
        }
        let submission =
            scanned.isEmpty
            ? PunchSubmission(cardId: id, code: code)
            : PunchSubmission(cardId: id, token: String(scanned.prefix(2_000)))
        let result = try await loyalty.sync(context.identity, PunchBatch(punches: [submission]))
        if let reason = result.results.first?.reason {
            return renderer.refused(
                "punch",
                FormState(form, names: ["code"], error: .validation(field: "code", Self.sentence(reason))),
                returnTo: "\(path)#punch"
            )
        }
        // A full card moves on to the next level's: show the one just filled, with its reward.
        return PageRenderer.seeOther("\(path)?notice=punched")
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
            return renderer.refused(
                alert: error.sentence,
                returnTo: "/places/businesses/\(business.uuidString.lowercased())"
            )
        }
    }
}
