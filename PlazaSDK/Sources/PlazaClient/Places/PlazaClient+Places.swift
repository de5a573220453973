import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Presence

    /// Owners and staff: the customers in the business's locations now.
    public func presence(at business: UUID) async throws -> [PresentCustomer] {
        let page: Page<PresentCustomer> = try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/presence",
            auth: .required
        )
        return page.items
    }

    /// Owners and staff: how many sharing customers are within `radius` metres of the business now.
    public func audience(of business: UUID, radius: Double? = nil) async throws -> Audience {
        try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/audience",
            query: Self.query(["radius": radius.map { String($0) }]),
            auth: .required
        )
    }

    // MARK: Sharing and history

    public func locationSharing() async throws -> LocationSharing {
        try await send("GET", "v1/me/location-sharing", auth: .required)
    }

    @discardableResult
    public func setLocationSharing(
        _ level: SharingLevel,
        zoneDisplay: ZoneDisplay? = nil
    ) async throws -> LocationSharing {
        try await send(
            "PUT",
            "v1/me/location-sharing",
            body: LocationSharing(level: level, zoneDisplay: zoneDisplay),
            auth: .required
        )
    }

    /// Sends up to 1,000 recorded points at once; `LocationUploader` batches and retries for you.
    @discardableResult
    public func uploadLocations(_ points: [LocationPoint]) async throws -> LocationUploadResult {
        try await send("POST", "v1/me/locations", body: LocationUpload(points: points), auth: .required)
    }

    /// The caller's own recorded points between `from` and `to`, as GeoJSON.
    public func locationHistory(
        from: Date? = nil,
        to: Date? = nil
    ) async throws -> GeoJSONFeatureCollection<HistoryPointProperties> {
        let format = Date.ISO8601FormatStyle()
        return try await send(
            "GET",
            "v1/me/locations",
            query: Self.query(["from": from.map { $0.formatted(format) }, "to": to.map { $0.formatted(format) }]),
            auth: .required
        )
    }

    /// Deletes every recorded point; the caller leaves every presence list at once.
    public func deleteLocationHistory() async throws {
        try await sendVoid("DELETE", "v1/me/locations", auth: .required)
    }

    public func privateZones() async throws -> [PrivateZone] {
        let page: Page<PrivateZone> = try await send("GET", "v1/me/private-zones", auth: .required)
        return page.items
    }

    public func createPrivateZone(_ request: PrivateZoneRequest) async throws -> PrivateZone {
        try await send("POST", "v1/me/private-zones", body: request, auth: .required)
    }

    public func updatePrivateZone(_ id: UUID, _ request: PrivateZoneRequest) async throws -> PrivateZone {
        try await send("PUT", "v1/me/private-zones/\(id.uuidString.lowercased())", body: request, auth: .required)
    }

    public func deletePrivateZone(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/me/private-zones/\(id.uuidString.lowercased())", auth: .required)
    }

    // MARK: Crowds and map

    public func popularTimes(at location: UUID) async throws -> PopularTimes {
        try await send("GET", "v1/locations/\(location.uuidString.lowercased())/popular-times")
    }

    public func lineWaits(at location: UUID) async throws -> LineWaits {
        try await send("GET", "v1/locations/\(location.uuidString.lowercased())/line-waits")
    }

    /// Reports the line's wait; only from someone at the location in the last 30 minutes, once per 15 minutes.
    @discardableResult
    public func reportLineWait(at location: UUID, minutes: Int) async throws -> LineWaits {
        try await send(
            "POST",
            "v1/locations/\(location.uuidString.lowercased())/line-waits",
            body: LineWaitReport(minutes: minutes),
            auth: .required
        )
    }

    /// Businesses and published dots in the box (west may exceed east across the antimeridian).
    /// The map of a box; `subscribedOnly` keeps the businesses whose offers I subscribed to.
    public func map(
        west: Double,
        south: Double,
        east: Double,
        north: Double,
        subscribedOnly: Bool = false
    ) async throws -> GeoJSONFeatureCollection<MapFeatureProperties> {
        try await send(
            "GET",
            "v1/map",
            query: Self.query([
                "bbox": "\(west),\(south),\(east),\(north)", "subscribed": subscribedOnly ? "true" : nil,
            ]),
            auth: subscribedOnly ? .required : .none
        )
    }

    static func query(_ items: KeyValuePairs<String, String?>) -> [URLQueryItem] {
        items.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
    }
}
