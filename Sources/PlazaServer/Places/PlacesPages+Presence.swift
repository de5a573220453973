import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The merchant's live presence list: who is in the shop now.
extension PlacesPages {
    func addPresenceRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("businesses/:id/presence", use: presence)
        signedIn.get("businesses/:id/presence.json", use: presenceJSON)
    }

    // MARK: Presence

    struct PresencePage: Sendable {
        struct Row: Sendable {
            var username: String
            var displayName: String
            var location: String
            var since: String
        }

        var shell: Shell
        var id: String
        var name: String
        var rows: [Row]
        var locationsJSON: String
        var count: Int
        var empty: Bool
    }

    /// Owners and staff: who is in the shop now, kept current by the page script over `/v1/events`.
    @Sendable func presence(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let customers = try await places.presence(context.identity, business: id)
        let business = try await businesses.business(id, viewer: context.identity)
        let names = Dictionary(uniqueKeysWithValues: business.locations.map { ($0.id, $0.name) })
        let formatter = ISO8601DateFormatter()
        let page = PresencePage(
            shell: Shell(title: say("In {name} now", ["name": business.name]), context: context),
            id: id.uuidString.lowercased(),
            name: business.name,
            rows: customers.map {
                PresencePage.Row(
                    username: $0.username,
                    displayName: $0.displayName,
                    location: names[$0.locationId] ?? "",
                    since: formatter.string(from: $0.since)
                )
            },
            locationsJSON: String(
                decoding: try PlazaJSON.encoder().encode(
                    Dictionary(
                        uniqueKeysWithValues: business.locations.map { ($0.id.uuidString.lowercased(), $0.name) }
                    )
                ),
                as: UTF8.self
            ),
            count: customers.count,
            empty: customers.isEmpty
        )
        return renderer.render("places/presence", page)
    }

    /// The same list as JSON, for the page script after each presence event.
    @Sendable func presenceJSON(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        return try .json(Page(items: try await places.presence(context.identity, business: id), nextCursor: nil))
    }
}
