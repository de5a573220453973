import Foundation
import Hummingbird
import PlazaCore

/// `/v1/nearby/businesses`, `/v1/businesses/{id}/presence` and `/audience`, `/v1/me/location*`, `/v1/me/private-zones*`,
/// `/v1/locations/*`, `/v1/map` and `/v1/owntracks`: the places API of `openapi.yaml`.
struct PlacesAPI: Sendable {
    let places: PlacesService
    let accounts: AccountService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        v1.get("nearby/businesses", use: nearby)
        v1.get("locations/:id/popular-times", use: popularTimes)
        v1.get("locations/:id/line-waits", use: lineWaits)
        v1.get("map", use: map)
        v1.post("owntracks", use: ownTracks)
        authenticated.get("businesses/:id/presence", use: presence)
        authenticated.get("businesses/:id/audience", use: audience)
        authenticated.get("me/location-sharing", use: sharing)
        authenticated.put("me/location-sharing", use: setSharing)
        authenticated.post("me/locations", use: upload)
        authenticated.get("me/locations", use: history)
        authenticated.delete("me/locations", use: deleteHistory)
        authenticated.get("me/private-zones", use: zones)
        authenticated.post("me/private-zones", use: createZone)
        authenticated.put("me/private-zones/:id", use: updateZone)
        authenticated.delete("me/private-zones/:id", use: deleteZone)
        authenticated.post("locations/:id/line-waits", use: reportLineWait)
    }

    // MARK: Nearby

    /// Anyone: businesses with a location near a point, nearest first.
    @Sendable func nearby(_ request: Request, context: AppRequestContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let point = try Query.point(request.uri)
        let radius =
            try Query.double(request.uri, "radius", in: 1...PlacesRules.nearbyMaximumRadius)
            ?? PlacesRules.nearbyDefaultRadius
        let only = try await places.subscribedOnly(context.identity, try Query.bool(request.uri, "subscribed"))
        return try .json(
            try await places.businesses.nearby(
                point,
                radius: radius,
                category: try Query.category(request.uri),
                hasLoyalty: try Query.bool(request.uri, "hasLoyalty"),
                only: only,
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    /// Owners and staff: the customers in the business's locations now.
    @Sendable func presence(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        return .json(writing: Page(items: try await places.presence(context.identity, business: id), nextCursor: nil))
    }

    /// Owners and staff: how many sharing customers are within `radius` metres (default 1,000, at most 5,000).
    @Sendable func audience(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let radius = try Query.double(request.uri, "radius", in: 1...PlacesRules.nearbyMaximumRadius) ?? 1_000
        return try .json(try await places.audience(context.identity, business: id, radius: radius))
    }

    // MARK: Sharing

    /// Signed in: who may see the caller's position.
    @Sendable func sharing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await places.sharing(context.identity))
    }

    /// Signed in: changes who may see the caller's position.
    @Sendable func setSharing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LocationSharing.self, limit: maxBody)
        return try .json(try await places.setSharing(context.identity, body))
    }

    /// Signed in and sharing: 1 to 1,000 recorded points.
    @Sendable func upload(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LocationUpload.self, limit: maxBody)
        return try .json(try await places.upload(context.identity, body))
    }

    /// Signed in: the caller's own history as GeoJSON, `from` and `to` ISO 8601 instants.
    @Sendable func history(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let from = try Query.date(request.uri, "from")
        let to = try Query.date(request.uri, "to")
        var response = try Response.json(try await places.history(context.identity, from: from, to: to))
        response.headers[.contentType] = "application/geo+json"
        response.headers[.contentDisposition] = "attachment; filename=\"plaza-locations.geojson\""
        return response
    }

    /// Signed in: deletes the caller's whole location history.
    @Sendable func deleteHistory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await places.deleteHistory(context.identity)
        return .noContent
    }

    @Sendable func zones(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await places.zones(context.identity), nextCursor: nil))
    }

    @Sendable func createZone(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PrivateZoneRequest.self, limit: maxBody)
        return try .json(try await places.createZone(context.identity, body), status: .created)
    }

    @Sendable func updateZone(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "private zone")
        let body = try await request.decodeJSON(as: PrivateZoneRequest.self, limit: maxBody)
        return try .json(try await places.updateZone(context.identity, id: id, body))
    }

    @Sendable func deleteZone(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await places.deleteZone(context.identity, id: try Query.id(context.parameters, "id", "private zone"))
        return .noContent
    }

    // MARK: OwnTracks

    /// The OwnTracks apps in HTTP mode: HTTP Basic with the username and an app password; `_type: location`
    /// messages become points, other types are acknowledged. OwnTracks expects a JSON array back.
    @Sendable func ownTracks(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (identity, appPassword) = try await accounts.identity(
            basic: request.headers[.authorization] ?? "",
            client: context.clientAddress
        )
        let message = try await request.decodeJSON(as: OwnTracksMessage.self, limit: maxBody)
        // With sharing off nothing is stored, but the app is told "received" (200 and an empty JSON array, as
        // OwnTracks expects): it would otherwise queue and retry the message forever.
        if let point = try message.point(), try await places.sharing(identity).level != .off {
            _ = try await places.upload(identity, LocationUpload(points: [point]))
        }
        try await accounts.heardFrom(appPassword: appPassword)
        return try .json([String]())
    }

    // MARK: Crowds

    /// Anyone: visits per weekday and hour and the live level.
    @Sendable func popularTimes(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(try await places.popularTimes(location: try Query.id(context.parameters, "id", "location")))
    }

    /// Anyone: the current line-wait estimate and averages.
    @Sendable func lineWaits(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(try await places.lineWaits(location: try Query.id(context.parameters, "id", "location")))
    }

    /// Signed in, present there in the last 30 minutes: a line-wait report.
    @Sendable func reportLineWait(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "location")
        let body = try await request.decodeJSON(as: LineWaitReport.self, limit: maxBody)
        return try .json(try await places.reportLineWait(context.identity, location: id, body), status: .created)
    }

    /// Anyone: GeoJSON of businesses and published dots in `bbox=west,south,east,north`.
    @Sendable func map(_ request: Request, context: AppRequestContext) async throws -> Response {
        let box = try Query.bbox(request.uri)
        let only = try await places.subscribedOnly(context.identity, try Query.bool(request.uri, "subscribed"))
        var response = try Response.json(
            try await places.map(south: box.south, west: box.west, north: box.north, east: box.east, only: only)
        )
        response.headers[.contentType] = "application/geo+json"
        return response
    }
}
