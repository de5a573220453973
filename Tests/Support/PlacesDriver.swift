import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore

/// Drives the places API as a client would: a merchant with a shop, customers who share and move.
public struct PlacesDriver: Sendable {
    public let client: any TestClientProtocol

    public init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// A signed-in merchant owning one business with one location at `at` (radius `radius` m).
    public func shop(
        owner: String = "bruno",
        name: String = "Corner Cafe",
        category: BusinessCategory = .cafe,
        at point: Coordinate,
        radius: Int = 100
    ) async throws -> (tokens: TokenResponse, business: Business, location: BusinessLocation) {
        let tokens = try await AccountsDriver(client).signedIn(owner, role: .merchant)
        let business = try await createBusiness(name: name, category: category, token: tokens.accessToken)
        let location = try await addLocation(
            business: business.id,
            at: point,
            radius: radius,
            token: tokens.accessToken
        )
        return (tokens, business, location)
    }

    public func createBusiness(name: String, category: BusinessCategory = .cafe, token: String) async throws -> Business
    {
        let response = try await client.send(
            .post,
            "/v1/businesses",
            json: CreateBusinessRequest(name: name, category: category),
            token: token
        )
        guard response.status == .created else {
            throw AccountsDriver.DriverError(description: "create business: \(response.status) \(response.text)")
        }
        return try response.decode(Business.self)
    }

    public func addLocation(
        business: UUID,
        name: String = "Main street",
        at point: Coordinate,
        radius: Int = 100,
        token: String
    ) async throws
        -> BusinessLocation
    {
        let response = try await client.send(
            .post,
            "/v1/businesses/\(business)/locations",
            json: LocationRequest(
                name: name,
                address: "1 Main Street",
                latitude: point.latitude,
                longitude: point.longitude,
                radiusMeters: radius
            ),
            token: token
        )
        guard response.status == .created else {
            throw AccountsDriver.DriverError(description: "add location: \(response.status) \(response.text)")
        }
        return try response.decode(BusinessLocation.self)
    }

    /// A signed-in customer sharing at `level`.
    public func sharingCustomer(_ name: String, level: SharingLevel = .merchants) async throws -> TokenResponse {
        let tokens = try await AccountsDriver(client).signedIn(name)
        try await share(level, token: tokens.accessToken)
        return tokens
    }

    @discardableResult
    public func share(
        _ level: SharingLevel,
        zoneDisplay: ZoneDisplay? = nil,
        token: String
    ) async throws -> TestResponse {
        try await client.send(
            .put,
            "/v1/me/location-sharing",
            json: LocationSharing(level: level, zoneDisplay: zoneDisplay),
            token: token
        )
    }

    /// Posts one point at `point`, `ago` seconds in the past.
    @discardableResult
    public func move(
        to point: Coordinate,
        ago: TimeInterval = 0,
        accuracy: Double? = 10,
        token: String
    ) async throws -> TestResponse {
        let time = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - ago).rounded(.down))
        return try await upload(
            [LocationPoint(latitude: point.latitude, longitude: point.longitude, accuracy: accuracy, recordedAt: time)],
            token: token
        )
    }

    @discardableResult
    public func upload(_ points: [LocationPoint], token: String) async throws -> TestResponse {
        try await client.send(.post, "/v1/me/locations", json: LocationUpload(points: points), token: token)
    }

    /// The usernames the business's presence list shows to `token`'s holder.
    public func present(business: UUID, token: String) async throws -> [String] {
        let response = try await client.send(.get, "/v1/businesses/\(business)/presence", token: token)
        guard response.status == .ok else {
            throw AccountsDriver.DriverError(description: "presence: \(response.status) \(response.text)")
        }
        return try response.decode(Page<PresentCustomer>.self).items.map(\.username)
    }
}
