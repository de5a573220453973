import Foundation
import Hummingbird
import PlazaCore

/// `/v1/businesses/{id}/campaigns`, `/v1/campaigns/*`, `/v1/me/offer-settings` and `/v1/me/subscriptions/*`: the offers
/// API of `openapi.yaml`.
struct OffersAPI: Sendable {
    let offers: OffersService
    let maxBody: Int

    func addRoutes(signedIn: SignedInRoutes) {
        let authenticated = signedIn.plain
        authenticated.post("businesses/:id/campaigns", use: createCampaign)
        authenticated.get("businesses/:id/campaigns", use: campaigns)
        authenticated.post("businesses/:id/campaigns/reach", use: reach)
        authenticated.get("campaigns/:id", use: campaign)
        authenticated.patch("campaigns/:id", use: changeCampaign)
        authenticated.post("campaigns/:id/submit", use: submit)
        authenticated.post("campaigns/:id/pause", use: pause)
        authenticated.post("campaigns/:id/resume", use: resume)
        authenticated.get("me/offer-settings", use: settings)
        authenticated.put("me/offer-settings", use: changeSettings)
        authenticated.get("me/subscriptions", use: subscriptions)
        authenticated.put("me/subscriptions/:id", use: subscribe)
        authenticated.delete("me/subscriptions/:id", use: unsubscribe)
        authenticated.post("campaigns/:id/push", use: push)
        authenticated.get("campaigns/:id/stats", use: stats)
        authenticated.get("me/offers", use: myOffers)
        authenticated.get("offers/search", use: search)
        authenticated.get("offers/:id", use: offer)
        authenticated.post("offers/:id/dismiss", use: dismiss)
        authenticated.post("offers/:id/claim", use: claim)
        authenticated.post("offers/:id/report", use: report)
        authenticated.get("offers/town", use: town)
        authenticated.post("offers/town/:id/claim", use: claimInTown)
    }

    @Sendable func createCampaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampaignContent.self, limit: maxBody)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(try await offers.createCampaign(context.identity, business: business, body), status: .created)
    }

    @Sendable func reach(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampaignReachRequest.self, limit: maxBody)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(try await offers.reach(context.identity, business: business, body))
    }

    @Sendable func campaigns(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(
            try await offers.campaigns(context.identity, business: business, limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func campaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await offers.campaign(context.identity, try Query.id(context.parameters, "id", "campaign")))
    }

    @Sendable func changeCampaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampaignChange.self, limit: maxBody)
        return try .json(
            try await offers.changeCampaign(context.identity, try Query.id(context.parameters, "id", "campaign"), body)
        )
    }

    @Sendable func submit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await offers.submit(context.identity, try Query.id(context.parameters, "id", "campaign")))
    }

    @Sendable func pause(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await offers.setPaused(context.identity, try Query.id(context.parameters, "id", "campaign"), true)
        )
    }

    @Sendable func resume(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await offers.setPaused(context.identity, try Query.id(context.parameters, "id", "campaign"), false)
        )
    }

    @Sendable func settings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await offers.settings(context.identity))
    }

    @Sendable func changeSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: OfferSettingsChange.self, limit: maxBody)
        return try .json(try await offers.changeSettings(context.identity, body))
    }

    @Sendable func subscriptions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await offers.subscriptions(context.identity, limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func subscribe(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: SubscriptionRequest.self, limit: maxBody)
        return try .json(
            try await offers.subscribe(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                body
            )
        )
    }

    @Sendable func unsubscribe(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await offers.unsubscribe(context.identity, business: try Query.id(context.parameters, "id", "business"))
        return .noContent
    }

    @Sendable func push(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await offers.push(context.identity, try Query.id(context.parameters, "id", "campaign")),
            status: .accepted
        )
    }

    @Sendable func stats(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await offers.stats(context.identity, try Query.id(context.parameters, "id", "campaign")))
    }

    @Sendable func myOffers(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let history: Bool
        switch request.uri.queryParameters.get("state") ?? "current" {
        case "current": history = false
        case "history": history = true
        default: throw PlazaError.validation(field: "state", phrase("Use current or history."))
        }
        return try .json(
            try await offers.offers(context.identity, history: history, limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func search(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let text = request.uri.queryParameters.get("q").map { String($0) }
        if let text, text.count > 200 {
            throw PlazaError.validation(field: "q", phrase("Search with at most 200 characters."))
        }
        let category = try Query.category(request.uri)
        return try .json(
            try await offers.offers(
                context.identity,
                history: false,
                text: text,
                category: category,
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func offer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await offers.offer(context.identity, try Query.id(context.parameters, "id", "offer")))
    }

    @Sendable func dismiss(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "offer")
        // The body is optional: an empty one dismisses the offer alone.
        let body =
            request.headers[.contentLength] == "0"
            ? OfferDismissal(muteBusiness: nil) : try await request.decodeJSON(as: OfferDismissal.self, limit: maxBody)
        try await offers.dismiss(context.identity, id, muteBusiness: body.muteBusiness ?? false)
        return Response(status: .noContent)
    }

    @Sendable func claim(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (claim, created) = try await offers.claim(context.identity, try Query.id(context.parameters, "id", "offer"))
        return try .json(claim, status: created ? .created : .ok)
    }

    /// 201 with a new report; 200 with the one the person filed before (one per person and offer).
    @Sendable func report(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: OfferReportRequest.self, limit: maxBody)
        let id = try Query.id(context.parameters, "id", "offer")
        let (report, created) = try await offers.report(context.identity, id, body)
        return try .json(report, status: created ? .created : .ok)
    }

    /// Offers running in town, whether or not they reached me (issue 39).
    @Sendable func town(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let text = request.uri.queryParameters.get("q").map { String($0) }
        if let text, text.count > 200 {
            throw PlazaError.validation(field: "q", phrase("Search with at most 200 characters."))
        }
        let category = try Query.category(request.uri)
        return try .json(
            try await offers.townOffers(
                context.identity,
                text: text,
                category: category,
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func claimInTown(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "offer")
        let (claim, created) = try await offers.claimInTown(context.identity, id)
        return try .json(claim, status: created ? .created : .ok)
    }
}
