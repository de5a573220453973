import Foundation
import Hummingbird
import PlazaCore

/// The admin console's campus pages (`/admin/campuses`): the campuses with their domains and terms, each campus's safe
/// spots (placed on a map), and the listing categories. Every action is the API's, through `MarketService`.
struct MarketAdminPages: Sendable {
    let market: MarketService
    let renderer: PageRenderer
    let maxBody: Int
    let map: PlacesPages.MapLayers

    static let notices = [
        "created": phrase("Campus added: students with its addresses can join now."),
        "spot-added": phrase("Safe spot added: students see it on the map of their conversations."),
        "spot-removed": phrase("Safe spot removed."),
        "category": phrase("Categories saved."),
    ]
    static let campusFields = ["name", "domains", "latitude", "longitude", "termEnds"]
    static let spotFields = ["name", "latitude", "longitude", "description", "hours"]
    static let categoryFields = ["slug", "name"]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let console = pages.group("admin", context: AuthenticatedContext.self).add(middleware: AdminOnly())
        console.get("campuses", use: campuses)
        console.post("campuses", use: createCampus)
        console.post("campuses/categories", use: saveCategory)
        console.get("campuses/:id", use: campus)
        console.post("campuses/:id/safe-spots", use: addSafeSpot)
        console.post("campuses/:id/safe-spots/:spot/delete", use: removeSafeSpot)
    }

    struct CampusesPage: Sendable {
        var shell: Shell
        var tabs: AdminPages.Tabs
        var rows: [Row]
        var form: FormState
        var categories: [MarketCategory]
        var categoryForm: FormState
    }

    struct Row: Sendable {
        var id: String
        var name: String
        var domains: String
        var terms: String
    }

    @Sendable func campuses(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let model = CampusesPage(
            shell: Shell(title: say("Campuses"), context: context, notice: notice(request)),
            tabs: AdminPages.Tabs(campuses: true),
            rows: try await market.allCampuses().map {
                Row(
                    id: $0.id.uuidString.lowercased(),
                    name: $0.name,
                    domains: $0.domains.joined(separator: ", "),
                    terms: $0.termEnds.isEmpty
                        ? say("no term ends listed")
                        : say("terms end {dates}", ["dates": $0.termEnds.joined(separator: ", ")])
                )
            },
            form: context.page.form("campus") ?? FormState(names: Self.campusFields),
            categories: try await market.categories(),
            categoryForm: context.page.form("category") ?? FormState(names: Self.categoryFields)
        )
        return renderer.render("market/admin-campuses", model)
    }

    @Sendable func createCampus(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let list = { (name: String) in
            form[name].split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        }
        do {
            guard let latitude = Double(form["latitude"]), let longitude = Double(form["longitude"]) else {
                throw PlazaError.validation(
                    field: "latitude",
                    phrase("Tap the campus's centre on the map, or type its latitude and longitude.")
                )
            }
            let campus = try await market.createCampus(
                CampusRequest(
                    name: form["name"],
                    domains: list("domains"),
                    center: Coordinate(latitude: latitude, longitude: longitude),
                    termEnds: list("termEnds")
                )
            )
            return PageRenderer.seeOther("/admin/campuses/\(campus.id.uuidString.lowercased())?notice=created")
        } catch var error as PlazaError where error.status.code < 500 {
            error.errors = error.errors?.map { FieldError(field: Self.formField($0.field), message: $0.message) }
            return renderer.refused(
                "campus",
                FormState(form, names: Self.campusFields, error: error),
                returnTo: "/admin/campuses"
            )
        }
    }

    /// `domains.1` → `domains`, `center` → `latitude`: the form has one field for each list.
    static func formField(_ field: String) -> String {
        let head = String(field.prefix { $0 != "." })
        return head == "center" ? "latitude" : head
    }

    @Sendable func saveCategory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            _ = try await market.saveCategory(
                MarketCategory(slug: form["slug"].trimmingCharacters(in: .whitespaces), name: form["name"])
            )
            return PageRenderer.seeOther("/admin/campuses?notice=category#categories")
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "category",
                FormState(form, names: Self.categoryFields, error: error),
                returnTo: "/admin/campuses#categories"
            )
        }
    }

    struct CampusPage: Sendable {
        var shell: Shell
        var tabs: AdminPages.Tabs
        var id: String
        var name: String
        var domains: String
        var terms: String
        var spots: [SafeSpot]
        var form: FormState
        var center: String
        var map: PlacesPages.MapLayers
    }

    @Sendable func campus(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "campus")
        guard let campus = try await market.allCampuses().first(where: { $0.id == id }) else {
            throw PlazaError.notFound("campus")
        }
        let model = CampusPage(
            shell: Shell(title: campus.name, context: context, notice: notice(request)),
            tabs: AdminPages.Tabs(campuses: true),
            id: id.uuidString.lowercased(),
            name: campus.name,
            domains: campus.domains.joined(separator: ", "),
            terms: campus.termEnds.joined(separator: ", "),
            spots: try await market.safeSpots(campus: id),
            form: context.page.form("spot") ?? FormState(names: Self.spotFields),
            center: "\(campus.center.latitude),\(campus.center.longitude)",
            map: map
        )
        return renderer.render("market/admin-campus", model)
    }

    @Sendable func addSafeSpot(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "campus")
        let back = "/admin/campuses/\(id.uuidString.lowercased())"
        do {
            guard let latitude = Double(form["latitude"]), let longitude = Double(form["longitude"]) else {
                throw PlazaError.validation(
                    field: "latitude",
                    phrase("Tap the spot on the map, or type its latitude and longitude.")
                )
            }
            _ = try await market.addSafeSpot(
                campus: id,
                SafeSpotRequest(
                    name: form["name"],
                    latitude: latitude,
                    longitude: longitude,
                    description: form["description"],
                    hours: form["hours"]
                )
            )
            return PageRenderer.seeOther("\(back)?notice=spot-added")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused("spot", FormState(form, names: Self.spotFields, error: error), returnTo: back)
        }
    }

    @Sendable func removeSafeSpot(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "campus")
        try await market.removeSafeSpot(campus: id, try Query.id(context.parameters, "spot", "safe spot"))
        return PageRenderer.seeOther("/admin/campuses/\(id.uuidString.lowercased())?notice=spot-removed")
    }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices[String($0)].map { say($0) } }
    }
}
