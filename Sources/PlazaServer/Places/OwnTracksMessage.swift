import Foundation
import PlazaCore

/// What the OwnTracks apps post in HTTP mode (https://owntracks.org/booklet/tech/json/). Only
/// `_type: location` carries a position; the rest (transitions, waypoints, status) are acknowledged.
struct OwnTracksMessage: Decodable, Sendable {
    var type: String
    var lat: Double?
    var lon: Double?
    /// Fix time, Unix seconds.
    var tst: Double?
    /// Accuracy in metres.
    var acc: Double?

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case lat, lon, tst, acc
    }

    func point() throws -> LocationPoint? {
        guard type == "location" else { return nil }
        var validator = Validator()
        validator.check(lat != nil, "lat", phrase("This field is required."))
        validator.check(lon != nil, "lon", phrase("This field is required."))
        validator.check(tst != nil, "tst", phrase("This field is required."))
        guard let lat, let lon, let tst, validator.isValid else { throw PlazaError.validation(validator.errors) }
        return LocationPoint(latitude: lat, longitude: lon, accuracy: acc, recordedAt: Date(timeIntervalSince1970: tst))
    }
}
