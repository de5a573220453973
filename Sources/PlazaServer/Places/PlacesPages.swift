import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The places pages: nearby businesses, the map, a business with its popular times and line, and the
/// customer's location settings, and the merchant's presence list. The business editor is `BusinessesPages`.
struct PlacesPages: Sendable {
    let places: PlacesService
    let businesses: BusinessesService
    let accounts: AccountService
    /// The business page offers its loyalty cards.
    let loyalty: LoyaltyService
    /// The business page's "Get its offers" button.
    let offers: OffersService
    let renderer: PageRenderer
    let configuration: PlazaConfiguration

    static let notices: [String: String] = [
        "sharing": phrase("Your sharing choice was saved."),
        "zone": phrase("The private zone was saved."),
        "zone-deleted": phrase("The private zone was deleted."),
        "history-deleted": phrase("Your location history was deleted."),
        "line": phrase("Thanks! Your line report helps everyone."),
        "subscribed": OffersPages.notices["subscribed"] ?? "",
        "unsubscribed": OffersPages.notices["unsubscribed"] ?? "",
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        pages.get("places", use: nearby)
        pages.get("places/map", use: map)
        pages.get("places/map/subscribed.geojson", use: subscribedMap)
        pages.get("places/businesses/:id", use: business)
        if places.tiles != nil { pages.get("tiles/:z/:x/:y", use: tile) }
        let signedIn = pages.group("places", context: AuthenticatedContext.self)
        signedIn.post("locations/:id/line-waits", use: reportLineWait)
        signedIn.get("settings", use: settings)
        signedIn.post("settings/sharing", use: saveSharing)
        signedIn.post("settings/zones", use: addZone)
        signedIn.post("settings/zones/:id/delete", use: deleteZone)
        signedIn.get("settings/history.geojson", use: exportHistory)
        signedIn.post("settings/history/delete", use: deleteHistory)
        signedIn.post("points", use: points)
        signedIn.get("geocode", use: geocode)
        addPresenceRoutes(to: signedIn)
        addBackgroundRoutes(to: signedIn)
    }

    var limit: Int { configuration.limits.maxRequestBody }

    /// What every map of the pages draws on: the operator's tiles, or the demo town's own drawing, and address search.
    struct MapLayers: Sendable {
        var tiles: String
        var attribution: String
        var basemap: String
        var geocode: String
    }

    var mapLayers: MapLayers { Self.mapLayers(configuration) }

    static func mapLayers(_ configuration: PlazaConfiguration) -> MapLayers {
        let places = configuration.places
        let tiles = places.mapTilesFile != nil ? "/tiles/{z}/{x}/{y}" : places.mapTilesURL ?? ""
        return MapLayers(
            tiles: tiles,
            attribution: places.mapAttribution,
            basemap: tiles.isEmpty && configuration.mode == .demo ? "/static/demo-town.geojson" : "",
            geocode: places.geocoderURL == nil ? "" : "/places/geocode"
        )
    }

    /// Anyone: one tile of the operator's MBTiles file.
    @Sendable func tile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let number = { (name: String) in context.parameters.get(name).flatMap { Int($0.split(separator: ".")[0]) } }
        guard let z = number("z"), let x = number("x"), let y = number("y"),
            let found = try await places.tiles?.tile(z: z, x: x, y: y)
        else {
            throw PlazaError.notFound("tile")
        }
        var headers = HTTPFields()
        headers[.contentType] = found.type
        headers[.cacheControl] = "public, max-age=86400"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: found.data))
    }

    /// Signed in: address search for placing a shop or a zone, as JSON for the map script.
    @Sendable func geocode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let found = try await places.geocode(context.identity, query: request.uri.queryParameters.get("q") ?? "")
        return try .json(Page(items: found, nextCursor: nil))
    }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }.map { say($0) }
    }

    struct Option: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    static func categoryOptions(selected: String?) -> [Option] {
        BusinessCategory.allCases.map {
            Option(value: $0.rawValue, label: categoryName($0), selected: $0.rawValue == selected)
        }
    }

    /// A business category as the reader reads it ("Café", "Bäckerei" is a name, not a category).
    static func categoryName(_ category: BusinessCategory) -> String {
        switch category {
        case .cafe: say("Cafe")
        case .restaurant: say("Restaurant")
        case .grocery: say("Grocery")
        case .retail: say("Retail")
        case .services: say("Services")
        case .entertainment: say("Entertainment")
        case .health: say("Health")
        case .education: say("Education")
        case .other: say("Other")
        }
    }

    // MARK: Nearby

    struct NearbyPage: Sendable {
        struct Row: Sendable {
            var id: String
            var name: String
            var category: String
            var address: String?
            var distance: String?
            var loyalty: Bool
            /// "Open now · closes 19:00", "Closed · opens …" (nil without opening hours).
            var openState: String? = nil
            var openNow = false
            /// "Busier than usual" (nil without enough data).
            var busy: String? = nil
            /// "Line: 12 min" from the last hour's reports.
            var line: String? = nil
        }

        var shell: Shell
        var q: String
        var latitude: String
        var longitude: String
        var categories: [Option]
        /// Only places running a loyalty program.
        var loyalty: Bool
        /// Only places whose offers the visitor subscribed to (signed in).
        var subscribed: Bool
        var signedIn: Bool
        var rows: [Row]
        var searched: Bool
        var heading = phrase("Results")
        var error: String?
        var nextCursor: String?
        var nextQuery: String?
    }

    /// Anyone: businesses near the browser's position (the page fills it in) or by name.
    @Sendable func nearby(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let (q, latitude, longitude, category) = (
            query.get("q") ?? "", query.get("latitude") ?? "", query.get("longitude") ?? "", query.get("category") ?? ""
        )
        var page = NearbyPage(
            shell: Shell(title: say("Places near you"), context: context),
            q: q,
            latitude: latitude,
            longitude: longitude,
            categories: Self.categoryOptions(selected: category),
            loyalty: query.get("loyalty") == "1",
            subscribed: query.get("subscribed") == "1",
            signedIn: context.identity != nil,
            rows: [],
            searched: false
        )
        let hasLoyalty: Bool? = page.loyalty ? true : nil
        do {
            let only = try await places.subscribedOnly(context.identity, page.subscribed)
            let paging = try Paging(request.uri)
            let kind = try Query.category(request.uri, lenient: true)
            var result: Page<BusinessSummary>?
            if !latitude.isEmpty || !longitude.isEmpty {
                let radius =
                    try Query.double(request.uri, "radius", in: 1...PlacesRules.nearbyMaximumRadius, lenient: true)
                    ?? 1_000
                result = try await businesses.nearby(
                    try Query.point(request.uri, lenient: true),
                    radius: radius,
                    category: kind,
                    hasLoyalty: hasLoyalty,
                    only: only,
                    limit: paging.limit,
                    cursor: paging.cursor
                )
            } else if !q.trimmingCharacters(in: .whitespaces).isEmpty || kind != nil || page.loyalty || page.subscribed
            {
                result = try await businesses.search(
                    text: String(q.prefix(100)),
                    category: kind,
                    hasLoyalty: hasLoyalty,
                    only: only,
                    limit: paging.limit,
                    cursor: paging.cursor
                )
            } else {
                // Before any search, the town's places; a search with nothing in it says so.
                if query.get("q") != nil {
                    page.error = say("Type a name or a word such as bakery, pick a category, or use your location.")
                }
                page.heading = phrase("Places in town")
                result = try await businesses.search(
                    text: nil,
                    category: nil,
                    limit: paging.limit,
                    cursor: paging.cursor
                )
            }
            if let result {
                page.searched = true
                page.rows = try await rows(result.items, reader: context.reader)
                page.nextCursor = result.nextCursor
                var items = [
                    URLQueryItem(name: "q", value: q), URLQueryItem(name: "latitude", value: latitude),
                    URLQueryItem(name: "longitude", value: longitude),
                    URLQueryItem(name: "category", value: category),
                    URLQueryItem(name: "loyalty", value: page.loyalty ? "1" : nil),
                    URLQueryItem(name: "subscribed", value: page.subscribed ? "1" : nil),
                    URLQueryItem(name: "cursor", value: result.nextCursor),
                ]
                items.removeAll { ($0.value ?? "").isEmpty }
                var components = URLComponents()
                components.queryItems = items
                page.nextQuery = components.percentEncodedQuery
            }
        } catch let error as PlazaError where error.status.code < 500 {
            page.error =
                error.errors?.map { PageLanguage.say($0.message) }.joined(separator: " ")
                ?? PageLanguage.say(error.title)
        }
        page.heading = say(page.heading)
        return renderer.render("places/nearby", page)
    }

    /// The list's rows with each place's hours, crowd and line now (the crowds of the whole page in one go).
    func rows(_ items: [BusinessSummary], reader: Reader) async throws -> [NearbyPage.Row] {
        let crowds = try await places.crowdsNow(locations: items.compactMap(\.location?.id))
        return items.map { item in
            var row = NearbyPage.Row(
                id: item.id.uuidString.lowercased(),
                name: item.name,
                category: Self.categoryName(item.category),
                address: item.location?.address,
                distance: item.distanceMeters.map(reader.distance),
                loyalty: item.hasLoyalty
            )
            guard let location = item.location else { return row }
            if let state = openState(location.openingHours) { (row.openNow, row.openState) = (state.open, state.text) }
            let crowd = crowds[location.id]
            row.busy = crowd.flatMap { Self.busyWords($0.busy) ?? $0.usual.map(Self.usualWords) }
            row.line = crowd?.lineWait.map { say("Line: {minutes} min", ["minutes": String($0)]) }
            return row
        }
    }

    // MARK: Map

    struct MapPage: Sendable {
        var shell: Shell
        var center: String
        var map: MapLayers
        var signedIn: Bool
        /// Only the businesses whose offers the visitor subscribed to: the map reads the page's own GeoJSON (the
        /// API's `/v1/map` takes a bearer token, the page has a cookie).
        var subscribed: Bool
        var source: String
        var latitude: String
        var longitude: String
    }

    /// Anyone: the live map of businesses (busy level, line) and opted-in people's obfuscated dots.
    @Sendable func map(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fallback = try await defaultCenter()
        let center = (try? Query.point(request.uri, lenient: true)) ?? fallback
        let subscribed = context.identity != nil && request.uri.queryParameters.get("subscribed") == "1"
        return renderer.render(
            "places/map",
            MapPage(
                shell: Shell(title: say("Map"), context: context),
                center: "\(center.latitude),\(center.longitude)",
                map: mapLayers,
                signedIn: context.identity != nil,
                subscribed: subscribed,
                source: subscribed ? "/places/map/subscribed.geojson" : "/v1/map",
                latitude: String(center.latitude),
                longitude: String(center.longitude)
            )
        )
    }

    /// The map's GeoJSON of the businesses whose offers the signed-in visitor subscribed to (401 signed out).
    @Sendable func subscribedMap(_ request: Request, context: AppRequestContext) async throws -> Response {
        let box = try Query.bbox(request.uri)
        let only = try await places.subscribedOnly(context.identity, true)
        var response = try Response.json(
            try await places.map(south: box.south, west: box.west, north: box.north, east: box.east, only: only)
        )
        response.headers[.contentType] = "application/geo+json"
        response.headers[.cacheControl] = "private, no-store"
        return response
    }

    func defaultCenter() async throws -> Coordinate {
        try await businesses.mapCenter()
    }
}
