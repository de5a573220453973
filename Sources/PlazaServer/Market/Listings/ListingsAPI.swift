import Foundation
import Hummingbird
import HummingbirdCore
import PlazaCore

/// `/v1/market/listings*` and `/v1/market/me/listings` of `openapi.yaml`: post, read, change, remove and sell
/// listings, and the campus's feed with search, filters and order.
struct ListingsAPI: Sendable {
    let market: MarketService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        authenticated.post("market/listings", use: create)
        authenticated.get("market/listings", use: feed)
        authenticated.get("market/listings/:id", use: listing)
        authenticated.patch("market/listings/:id", use: change)
        authenticated.delete("market/listings/:id", use: remove)
        authenticated.post("market/listings/:id/sold", use: sold)
        authenticated.get("market/me/listings", use: mine)
        authenticated.get("market/me/sales", use: sales)
        authenticated.get("market/me/purchases", use: purchases)
        authenticated.get("market/users", use: students)
        authenticated.get("market/users/:username", use: profile)
        authenticated.patch("market/me/profile", use: changeProfile)
    }

    @Sendable func changeProfile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: MarketProfileChange.self, limit: maxBody)
        return try .json(try await market.updateProfile(context.identity, body))
    }

    @Sendable func students(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let text = request.uri.queryParameters.get("q") ?? ""
        return try .json(Page(items: try await market.searchStudents(context.identity, text: text), nextCursor: nil))
    }

    @Sendable func profile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.profile(context.identity, username: context.parameters.get("username") ?? ""))
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ListingRequest.self, limit: maxBody)
        return try .json(try await market.createListing(context.identity, body), status: .created)
    }

    @Sendable func feed(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return .json(
            writing: try await market.feed(
                context.identity,
                try Self.query(request.uri),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func listing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.listing(context.identity, try Query.id(context.parameters, "id", "listing")))
    }

    @Sendable func change(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ListingChange.self, limit: maxBody)
        return try .json(
            try await market.changeListing(context.identity, try Query.id(context.parameters, "id", "listing"), body)
        )
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.removeListing(context.identity, try Query.id(context.parameters, "id", "listing"))
        return Response(status: .noContent)
    }

    @Sendable func sold(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ListingSale.self, limit: maxBody)
        return try .json(
            try await market.markSold(context.identity, try Query.id(context.parameters, "id", "listing"), body)
        )
    }

    @Sendable func sales(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await market.history(context.identity, selling: true, limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func purchases(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await market.history(context.identity, selling: false, limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let states = try (request.uri.queryParameters.get("state").map { [$0] } ?? []).map { text in
            guard let state = ListingState(rawValue: String(text)) else {
                throw PlazaError.validation(
                    field: "state",
                    say("Use one of {codes}.", ["codes": ListingState.allCases.map(\.rawValue).joined(separator: ", ")])
                )
            }
            return state
        }
        return try .json(
            try await market.myListings(context.identity, states: states, limit: paging.limit, cursor: paging.cursor)
        )
    }

    /// The feed's query parameters; each wrong one is named.
    static func query(_ uri: URI, lenient: Bool = false) throws -> ListingQuery {
        let parameters = uri.queryParameters
        var validator = Validator()
        func text(_ name: String) -> String? {
            parameters.get(name).map { String($0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func amount(_ name: String) -> Int64? {
            guard !lenient, let value = text(name) else { return nil }
            let amount = Int64(value)
            validator.check((amount ?? -1) >= 0, name, phrase("Use a whole number of minor units (cents), 0 or more."))
            return amount
        }
        let condition = text("condition").flatMap(ListingCondition.init(rawValue:))
        validator.check(
            text("condition") == nil || condition != nil,
            "condition",
            phrase("Use one of new, like_new, good, fair, poor.")
        )
        let sort = text("sort").flatMap(ListingSort.init(rawValue:))
        validator.check(text("sort") == nil || sort != nil, "sort", phrase("Use newest, price_asc or price_desc."))
        validator.check((text("q")?.count ?? 0) <= 200, "q", phrase("Search with at most 200 characters."))
        let query = ListingQuery(
            text: text("q"),
            category: text("category"),
            condition: condition,
            minPrice: amount("minPrice"),
            maxPrice: amount("maxPrice"),
            seller: text("seller"),
            sort: sort ?? .newest
        )
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        return query
    }
}
