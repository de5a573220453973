import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import PlazaCore

/// One answer of an address search.
struct GeocodedPlace: Codable, Sendable, Hashable {
    var label: String
    var latitude: Double
    var longitude: Double
}

/// Finds coordinates for an address typed by a person placing a shop or a private zone.
protocol Geocoder: Sendable {
    func search(_ query: String, near: Coordinate?) async throws -> [GeocodedPlace]
}

/// A Nominatim-compatible geocoder (`PLAZA_GEOCODER_URL`): `GET /search?q=&format=jsonv2&limit=5`. Plaza asks it on
/// the person's behalf, so their browser never talks to a third party; results near the town come first.
struct NominatimGeocoder: Geocoder {
    let base: URL
    var timeout: TimeAmount = .seconds(8)

    struct Hit: Decodable {
        var lat: String
        var lon: String
        var display_name: String
    }

    func search(_ query: String, near: Coordinate?) async throws -> [GeocodedPlace] {
        var components = URLComponents(url: base.appendingPathComponent("search"), resolvingAgainstBaseURL: false)
        var items = [
            URLQueryItem(name: "q", value: query), URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "limit", value: "5"),
        ]
        if let near {
            // About 20 km around the town, preferred but not a bound.
            let box = [near.longitude - 0.2, near.latitude + 0.15, near.longitude + 0.2, near.latitude - 0.15].map {
                String(format: "%.4f", $0)
            }
            items.append(URLQueryItem(name: "viewbox", value: box.joined(separator: ",")))
        }
        components?.queryItems = items
        guard let url = components?.url?.absoluteString else { return [] }
        var request = HTTPClientRequest(url: url)
        // Nominatim's usage policy asks every application to name itself.
        request.headers.add(
            name: "User-Agent",
            value: "Plaza (local commerce; address search for placing shops and zones)"
        )
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await HTTPClient.shared.traced(request, timeout: timeout)
        guard response.status == .ok else { throw PlazaError.geocoderUnavailable }
        let body = try await response.body.collect(upTo: 1 << 20)
        let hits = (try? JSONDecoder().decode([Hit].self, from: Data(body.readableBytesView))) ?? []
        return hits.compactMap { hit in
            guard let latitude = Double(hit.lat), let longitude = Double(hit.lon), abs(latitude) <= 90,
                abs(longitude) <= 180
            else { return nil }
            return GeocodedPlace(label: String(hit.display_name.prefix(200)), latitude: latitude, longitude: longitude)
        }
    }
}

extension PlazaError {
    static let geocoderUnavailable = PlazaError(
        .serviceUnavailable,
        .unavailable,
        phrase("The address search is not available now."),
        detail: phrase("Tap the map or type the coordinates instead.")
    )
}
