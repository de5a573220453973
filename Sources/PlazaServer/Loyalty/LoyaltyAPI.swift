import Foundation
import Hummingbird
import PlazaCore

/// `/v1/businesses/{id}/loyalty*`, `/v1/loyalty-programs*` and `/v1/me/loyalty-*`: the loyalty API of `openapi.yaml`.
struct LoyaltyAPI: Sendable {
    let loyalty: LoyaltyService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, signedIn: SignedInRoutes) {
        // A reward is worth money: the answer is recorded with the redemption, and a retry gets it again.
        signedIn.money(.recordedWithWork).post("businesses/:id/loyalty-redemptions", use: redeem)
        // So is a punch: staff scanning a customer's code twice over a bad connection punch once.
        signedIn.money(.recordedWithWork).post("businesses/:id/loyalty/punches", use: punchCustomer)
        let authenticated = signedIn.plain
        v1.get("businesses/:id/loyalty-programs", use: programs)
        v1.get("loyalty-programs/:id", use: program)
        authenticated.post("businesses/:id/loyalty-programs", use: createProgram)
        authenticated.patch("loyalty-programs/:id", use: changeProgram)
        authenticated.post("businesses/:id/loyalty/keys", use: rotateKey)
        authenticated.get("businesses/:id/loyalty/punch-token", use: punchToken)
        authenticated.post("loyalty-programs/:id/cards", use: takeCard)
        authenticated.get("me/loyalty-cards", use: cards)
        authenticated.get("me/loyalty-cards/:id", use: card)
        authenticated.post("me/loyalty-punches", use: punch)
        authenticated.post("me/loyalty-cards/:id/redeem-code", use: redeemCode)
        authenticated.post("me/loyalty-cards/:id/punch-code", use: punchCode)
        authenticated.get("me/loyalty-cards/:id/apple-pass", use: applePass)
        authenticated.get("me/loyalty-cards/:id/google-wallet", use: googleWallet)
        authenticated.get("businesses/:id/loyalty/history", use: history)
        authenticated.get("businesses/:id/loyalty/history.csv", use: historyCSV)
        authenticated.get("businesses/:id/loyalty/analytics", use: analytics)
        authenticated.get("businesses/:id/loyalty/regulars", use: regulars)
        authenticated.put("me/loyalty-sharing/:id", use: setSharing)
        authenticated.get("me/loyalty-settings", use: settings)
        authenticated.put("me/loyalty-settings", use: setSettings)
    }

    @Sendable func programs(_ request: Request, context: AppRequestContext) async throws -> Response {
        let programs = try await loyalty.programs(
            business: try Query.id(context.parameters, "id", "business"),
            viewer: context.identity
        )
        return try .json(Page(items: programs, nextCursor: nil))
    }

    @Sendable func program(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(
            try await loyalty.program(try Query.id(context.parameters, "id", "program"), viewer: context.identity)
        )
    }

    @Sendable func createProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoyaltyProgramRequest.self, limit: maxBody)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(try await loyalty.createProgram(context.identity, business: business, body), status: .created)
    }

    @Sendable func changeProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoyaltyProgramChange.self, limit: maxBody)
        return try .json(
            try await loyalty.changeProgram(context.identity, try Query.id(context.parameters, "id", "program"), body)
        )
    }

    @Sendable func rotateKey(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await loyalty.rotateKey(context.identity, business: try Query.id(context.parameters, "id", "business")),
            status: .created
        )
    }

    @Sendable func punchToken(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let program = query.get("programId").flatMap(UUID.init(uuidString:)) else {
            throw PlazaError.validation(field: "programId", phrase("Name the program (its id)."))
        }
        guard let location = query.get("locationId").flatMap(UUID.init(uuidString:)) else {
            throw PlazaError.validation(field: "locationId", phrase("Name the location (its id)."))
        }
        return try .json(
            try await loyalty.punchToken(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                program: program,
                location: location
            )
        )
    }

    @Sendable func takeCard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await loyalty.takeCard(context.identity, program: try Query.id(context.parameters, "id", "program")),
            status: .created
        )
    }

    @Sendable func cards(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let view = try request.uri.queryParameters.get("view").map { raw in
            guard let view = LoyaltyService.CardView(rawValue: raw) else {
                throw PlazaError.validation(field: "view", phrase("Use current or history."))
            }
            return view
        }
        return try .json(
            try await loyalty.cards(
                context.identity,
                view: view ?? .current,
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func card(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await loyalty.card(context.identity, try Query.id(context.parameters, "id", "card")))
    }

    @Sendable func punch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PunchBatch.self, limit: maxBody)
        return try .json(try await loyalty.sync(context.identity, body))
    }

    @Sendable func redeemCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await loyalty.redeemCode(context.identity, card: try Query.id(context.parameters, "id", "card")),
            status: .created
        )
    }

    @Sendable func punchCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await loyalty.punchCode(context.identity, card: try Query.id(context.parameters, "id", "card")),
            status: .created
        )
    }

    @Sendable func applePass(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pass = try await loyalty.applePass(context.identity, card: try Query.id(context.parameters, "id", "card"))
        return .download(pass, contentType: "application/vnd.apple.pkpass", filename: "plaza-loyalty-card.pkpass")
    }

    @Sendable func googleWallet(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await loyalty.googleWalletLink(context.identity, card: try Query.id(context.parameters, "id", "card"))
        )
    }

    @Sendable func punchCustomer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let claim = context.idempotencyClaim else { throw PlazaError.idempotencyKeyRequired }
        let body = try await request.decodeJSON(as: CounterPunchRequest.self, limit: maxBody)
        return try .json(
            try await loyalty.punchCustomer(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                body,
                claim: claim
            )
        )
    }

    @Sendable func redeem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let claim = context.idempotencyClaim else { throw PlazaError.idempotencyKeyRequired }
        let body = try await request.decodeJSON(as: RedemptionRequest.self, limit: maxBody)
        return try .json(
            try await loyalty.redeem(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                body,
                claim: claim
            ),
            status: .created
        )
    }

    @Sendable func history(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await loyalty.history(
                context.identity,
                try Self.filter(request, context),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func historyCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        .csv(
            try await loyalty.historyCSV(context.identity, try Self.filter(request, context)),
            filename: "plaza-loyalty-history.csv"
        )
    }

    @Sendable func analytics(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let program = query.get("programId").flatMap(UUID.init(uuidString:)) else {
            throw PlazaError.validation(field: "programId", phrase("Name the program (its id)."))
        }
        var months = 12
        if let text = query.get("months") {
            guard let number = Int(text), LoyaltyAnalyticsRules.months.contains(number) else {
                throw PlazaError.validation(field: "months", phrase("Ask for 1 to 24 months."))
            }
            months = number
        }
        let zone = context.identity.user.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        return try .json(
            try await loyalty.analytics(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                program: program,
                months: months,
                zone: zone
            )
        )
    }

    @Sendable func regulars(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let items = try await loyalty.regulars(
            context.identity,
            business: try Query.id(context.parameters, "id", "business")
        )
        return try .json(Page(items: items, nextCursor: nil))
    }

    @Sendable func setSharing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoyaltySharingRequest.self, limit: maxBody)
        return try .json(
            try await loyalty.setSharing(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                share: body.share
            )
        )
    }

    @Sendable func settings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await loyalty.settings(context.identity))
    }

    @Sendable func setSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoyaltySettings.self, limit: maxBody)
        return try .json(try await loyalty.setSettings(context.identity, body))
    }

    static func filter(_ request: Request, _ context: AuthenticatedContext) throws -> LoyaltyStore.HistoryFilter {
        let query = request.uri.queryParameters
        func id(_ name: String) throws -> UUID? {
            try query.get(name).map { raw in
                guard let id = UUID(uuidString: raw) else {
                    throw PlazaError.validation(field: name, phrase("Use an id Plaza gave out."))
                }
                return id
            }
        }
        return LoyaltyStore.HistoryFilter(
            business: try Query.id(context.parameters, "id", "business"),
            program: try id("programId"),
            location: try id("locationId"),
            from: try Query.date(request.uri, "from"),
            to: try Query.date(request.uri, "to")
        )
    }
}
