import Foundation
import Logging
import PlazaCore

extension PlacesService {
    /// 30 address searches per person per rate-limit window: placing a shop or a zone takes a few.
    var geocodeRule: RateLimiter.Rule { RateLimiter.Rule(bucket: "geocode", limit: 30) }

    /// Signed in: up to five places for a typed address, those near the town first. 503 when no geocoder is set up.
    func geocode(_ identity: Identity, query raw: String) async throws -> [GeocodedPlace] {
        guard let geocoder else { throw PlazaError.geocoderUnavailable }
        let query = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (3...200).contains(query.count) else {
            throw PlazaError.validation(field: "q", phrase("Type 3 to 200 characters of the address."))
        }
        try await limiter.hit(geocodeRule, identity.user.id.uuidString)
        try await prepare()
        let town = businesses.catalog.first?.location.coordinate
        do {
            return try await geocoder.search(query, near: town)
        } catch let error as PlazaError {
            throw error
        } catch {
            logger.warning("geocoder failed", metadata: ["error": "\(error)"])
            throw PlazaError.geocoderUnavailable
        }
    }
}
