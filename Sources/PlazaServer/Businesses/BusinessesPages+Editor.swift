import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// Merchants' pages: their businesses and the editor (details, locations, team).
extension BusinessesPages {
    func addEditorRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("mine", use: mine)
        signedIn.get("businesses/:id/edit", use: edit)
        signedIn.post("businesses/:id/edit", use: saveBusiness)
        signedIn.post("businesses/:id/locations", use: addLocation)
        signedIn.post("businesses/:id/locations/:locationId", use: updateLocation)
        signedIn.post("businesses/:id/locations/:locationId/delete", use: deleteLocation)
        signedIn.post("businesses/:id/members", use: addMember)
        signedIn.post("businesses/:id/members/:username/delete", use: removeMember)
    }

    // MARK: My businesses

    struct MinePage: Sendable {
        struct Row: Sendable {
            var id: String
            var name: String
            var category: String
            var role: String
            var owner: Bool
            var locations: String
        }

        var shell: Shell
        var rows: [Row]
        var merchant: Bool
    }

    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderMine(context: context, notice: notice(request))
    }

    func renderMine(context: AuthenticatedContext, notice: String? = nil) async throws -> Response {
        let businesses = try await businesses.myBusinesses(context.identity)
        let page = MinePage(
            shell: Shell(title: say("Your businesses"), context: context, notice: notice),
            rows: businesses.map {
                MinePage.Row(
                    id: $0.id.uuidString.lowercased(),
                    name: $0.name,
                    category: PlacesPages.categoryName($0.category),
                    role: $0.role.map(Self.roleName) ?? "",
                    owner: $0.role == .owner,
                    locations: context.reader.count($0.locations.count, "count.location")
                )
            },
            merchant: [.merchant, .admin].contains(context.identity.user.role)
        )
        return renderer.render("businesses/mine", page)
    }

    // MARK: Editor

    struct EditPage: Sendable {
        struct LocationRow: Sendable {
            var id: String
            var businessId: String
            var name: String
            var address: String
            var radius: String
            var latitude: String
            var longitude: String
            var hours: String
            /// A refused change to this row: its typed values are shown again, open, with what was wrong.
            var problems: [String] = []
            var open = false
        }

        struct MemberRow: Sendable {
            var businessId: String
            var username: String
            var displayName: String
            var role: String
            var me: Bool
        }

        var shell: Shell
        var id: String
        var name: String
        var form: FormState
        var categories: [PlacesPages.Option]
        var locations: [LocationRow]
        var locationForm: FormState
        var members: [MemberRow]
        var memberForm: FormState
        var center: String
        var map: PlacesPages.MapLayers
    }

    static let locationFields = ["name", "address", "latitude", "longitude", "radiusMeters", "openingHours"]

    /// A business's page for its owners.
    static func editPath(_ id: UUID) -> String { "/places/businesses/\(id.uuidString.lowercased())/edit" }

    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderEdit(context: context, notice: notice(request))
    }

    func renderEdit(context: AuthenticatedContext, notice: String? = nil) async throws -> Response {
        let refused = context.page
        let id = try Query.id(context.parameters, "id", "business")
        _ = try await businesses.requireMember(context.identity, of: id, owner: true)
        let business = try await businesses.business(id, viewer: context.identity)
        let members = try await businesses.members(context.identity, business: id)
        let fallback = try await defaultCenter()
        let center = business.locations.first?.coordinate ?? fallback
        let page = EditPage(
            shell: Shell(title: say("Edit {title}", ["title": business.name]), context: context, notice: notice),
            id: id.uuidString.lowercased(),
            name: business.name,
            form: refused.form("business")
                ?? FormState(names: ["name", "description"]).with("name", business.name).with(
                    "description",
                    business.description
                ),
            categories: PlacesPages.categoryOptions(selected: business.category.rawValue),
            locations: business.locations.map {
                Self.row($0, business: id, refused: refused.form("location-\($0.id.uuidString.lowercased())"))
            },
            locationForm: refused.form("location")
                ?? FormState(names: Self.locationFields).with(
                    "radiusMeters",
                    String(BusinessRules.defaultLocationRadius)
                ),
            members: members.map {
                EditPage.MemberRow(
                    businessId: id.uuidString.lowercased(),
                    username: $0.username,
                    displayName: $0.displayName,
                    role: Self.roleName($0.role),
                    me: $0.username == context.identity.user.username
                )
            },
            memberForm: refused.form("member") ?? FormState(names: ["username"]),
            center: "\(center.latitude),\(center.longitude)",
            map: mapLayers
        )
        return renderer.render("businesses/edit", page)
    }

    /// A member's role as the page shows it.
    static func roleName(_ role: BusinessRole) -> String {
        switch role {
        case .owner: say("owner")
        case .staff: say("staff")
        }
    }

    /// A location's row, with the typed values of a refused change to it.
    static func row(_ location: BusinessLocation, business: UUID, refused: FormState?) -> EditPage.LocationRow {
        var row = EditPage.LocationRow(
            id: location.id.uuidString.lowercased(),
            businessId: business.uuidString.lowercased(),
            name: location.name,
            address: location.address,
            radius: String(location.radiusMeters),
            latitude: String(format: "%.6f", location.latitude),
            longitude: String(format: "%.6f", location.longitude),
            hours: (PlacesPages.hours(location.openingHours, typed: true) ?? "").replacingOccurrences(
                of: "–",
                with: "-"
            )
        )
        guard let refused else { return row }
        let typed = { (name: String) in refused.fields[name]?.value ?? "" }
        (row.name, row.address, row.latitude, row.longitude) = (
            typed("name"), typed("address"), typed("latitude"), typed("longitude")
        )
        (row.radius, row.hours, row.open) = (typed("radiusMeters"), typed("openingHours"), true)
        row.problems = Self.locationFields.compactMap { refused.fields[$0]?.error } + (refused.error.map { [$0] } ?? [])
        return row
    }

    @Sendable func saveBusiness(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let form = try await request.decodeForm(limit: limit)
        do {
            _ = try await businesses.updateBusiness(
                context.identity,
                id,
                UpdateBusinessRequest(
                    name: form["name"],
                    category: BusinessCategory(rawValue: form["category"]),
                    description: form["description"]
                )
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "business",
                FormState(form, names: ["name", "description"], error: error),
                returnTo: "\(Self.editPath(id))#details-heading"
            )
        }
        return PageRenderer.seeOther("\(Self.editPath(id))?notice=business")
    }

    @Sendable func addLocation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await saveLocation(request, context: context, location: nil)
    }

    /// Owners: replaces a location's fields from its row's form.
    @Sendable func updateLocation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await saveLocation(
            request,
            context: context,
            location: try Query.id(context.parameters, "locationId", "location")
        )
    }

    private func saveLocation(
        _ request: Request,
        context: AuthenticatedContext,
        location existing: UUID?
    ) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let form = try await request.decodeForm(limit: limit)
        do {
            guard let hours = BusinessRules.parseOpeningHours(form["openingHours"]) else {
                throw PlazaError.validation(
                    field: "openingHours",
                    phrase("Write them like Mon-Fri 07:00-19:00, Sat 08:00-14:00.")
                )
            }
            let location = LocationRequest(
                name: form["name"],
                address: form["address"],
                latitude: Double(decimal: form["latitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                longitude: Double(decimal: form["longitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                radiusMeters: Int(form["radiusMeters"].trimmingCharacters(in: .whitespaces)) ?? 0,
                openingHours: hours
            )
            if let existing {
                _ = try await businesses.updateLocation(context.identity, business: id, location: existing, location)
            } else {
                _ = try await businesses.addLocation(context.identity, business: id, location)
            }
        } catch let error as PlazaError where error.status.code < 500 {
            let name = existing.map { "location-\($0.uuidString.lowercased())" } ?? "location"
            let anchor = existing == nil ? "add-location" : name
            return renderer.refused(
                name,
                FormState(form, names: Self.locationFields, error: error),
                returnTo: "\(Self.editPath(id))#\(anchor)"
            )
        }
        return PageRenderer.seeOther("\(Self.editPath(id))?notice=location")
    }

    @Sendable func deleteLocation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        try await businesses.deleteLocation(
            context.identity,
            business: id,
            location: try Query.id(context.parameters, "locationId", "location")
        )
        return PageRenderer.seeOther("\(Self.editPath(id))?notice=location-deleted")
    }

    @Sendable func addMember(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let form = try await request.decodeForm(limit: limit)
        do {
            _ = try await businesses.setMember(
                context.identity,
                business: id,
                AddMemberRequest(username: form["username"], role: BusinessRole(rawValue: form["role"]) ?? .staff)
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "member",
                FormState(form, names: ["username"], error: error),
                returnTo: "\(Self.editPath(id))#team-heading"
            )
        }
        return PageRenderer.seeOther("\(Self.editPath(id))?notice=member")
    }

    @Sendable func removeMember(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        do {
            try await businesses.removeMember(
                context.identity,
                business: id,
                username: context.parameters.get("username") ?? ""
            )
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(
                "member",
                FormState(names: ["username"], error: error),
                returnTo: "\(Self.editPath(id))#team-heading"
            )
        }
        return PageRenderer.seeOther("\(Self.editPath(id))?notice=member")
    }
}
