import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// The customer's location settings: sharing level, private zones, OwnTracks, export and deletion; and the
/// endpoint the page's script posts the browser's position to.
extension PlacesPages {
    struct SettingsPage: Sendable {
        struct ZoneRow: Sendable {
            var id: String
            var name: String
            var radius: Int
            var latitude: String
            var longitude: String
        }

        var shell: Shell
        var levels: [Option]
        var displays: [Option]
        var sharing: Bool
        var level: String
        var zones: [ZoneRow]
        var zonesJSON: String
        var zoneForm: FormState
        var center: String
        var map: MapLayers
        var ownTracksURL: String
        var retentionDays: Int
    }

    static let levelLabels: [(SharingLevel, String)] = [
        (.off, phrase("Off: Plaza records nothing")), (.merchants, phrase("Shops I visit see that I am there")),
        (.map, phrase("Also a blurred dot on the public map")),
    ]

    /// Signed in: the settings page.
    @Sendable func settings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderSettings(context: context, notice: notice(request))
    }

    func renderSettings(context: AuthenticatedContext, notice: String? = nil) async throws -> Response {
        let identity = context.identity
        let sharing = try await places.sharing(identity)
        let zones = try await places.zones(identity)
        let zonesJSON = String(
            decoding: try PlazaJSON.encoder().encode(
                zones.map {
                    [
                        "name": JSONValue.string($0.name), "latitude": .number($0.latitude),
                        "longitude": .number($0.longitude),
                        "radiusMeters": .number(Double($0.radiusMeters)),
                    ]
                }
            ),
            as: UTF8.self
        )
        let fallback = try await defaultCenter()
        let center = zones.first?.coordinate ?? fallback
        let page = SettingsPage(
            shell: Shell(title: say("Location settings"), context: context, notice: notice),
            levels: Self.levelLabels.map {
                Option(value: $0.0.rawValue, label: say($0.1), selected: $0.0 == sharing.level)
            },
            displays: [
                (ZoneDisplay.decoy, say("Show a decoy point far from the zone")), (.hidden, say("Show nothing")),
            ].map {
                Option(value: $0.0.rawValue, label: $0.1, selected: $0.0 == (sharing.zoneDisplay ?? .decoy))
            },
            sharing: sharing.level != .off,
            level: sharing.level.rawValue,
            zones: zones.map {
                SettingsPage.ZoneRow(
                    id: $0.id.uuidString.lowercased(),
                    name: $0.name,
                    radius: $0.radiusMeters,
                    latitude: String(format: "%.5f", $0.latitude),
                    longitude: String(format: "%.5f", $0.longitude)
                )
            },
            zonesJSON: zonesJSON,
            zoneForm: context.page.form("zone")
                ?? FormState(names: ["name", "latitude", "longitude", "radiusMeters"]).with("radiusMeters", "200"),
            center: "\(center.latitude),\(center.longitude)",
            map: mapLayers,
            ownTracksURL: "\(configuration.baseURL)/v1/owntracks",
            retentionDays: Int(configuration.places.retention / 86_400)
        )
        return renderer.render("places/settings", page)
    }

    @Sendable func saveSharing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        guard let level = SharingLevel(rawValue: form["level"]) else {
            throw PlazaError.validation(field: "level", phrase("Choose who may see you."))
        }
        _ = try await places.setSharing(
            context.identity,
            LocationSharing(level: level, zoneDisplay: ZoneDisplay(rawValue: form["zoneDisplay"]))
        )
        return PageRenderer.seeOther("/places/settings?notice=sharing")
    }

    static let zoneFields = ["name", "latitude", "longitude", "radiusMeters"]

    @Sendable func addZone(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            let zone = PrivateZoneRequest(
                name: form["name"],
                latitude: Double(decimal: form["latitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                longitude: Double(decimal: form["longitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                radiusMeters: Int(form["radiusMeters"].trimmingCharacters(in: .whitespaces)) ?? 0
            )
            _ = try await places.createZone(context.identity, zone)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "zone",
                FormState(form, names: Self.zoneFields, error: error),
                returnTo: "/places/settings#add-zone"
            )
        }
        return PageRenderer.seeOther("/places/settings?notice=zone")
    }

    @Sendable func deleteZone(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await places.deleteZone(context.identity, id: try Query.id(context.parameters, "id", "private zone"))
        return PageRenderer.seeOther("/places/settings?notice=zone-deleted")
    }

    @Sendable func exportHistory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        var response = try Response.json(try await places.history(context.identity, from: nil, to: nil))
        response.headers[.contentType] = "application/geo+json"
        response.headers[.contentDisposition] = "attachment; filename=\"plaza-locations.geojson\""
        return response
    }

    @Sendable func deleteHistory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await places.deleteHistory(context.identity)
        return PageRenderer.seeOther("/places/settings?notice=history-deleted")
    }

    /// The page script's position reports (JSON, CSRF header): the same rules as `POST /v1/me/locations`.
    @Sendable func points(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LocationUpload.self, limit: limit)
        return try .json(try await places.upload(context.identity, body))
    }
}
