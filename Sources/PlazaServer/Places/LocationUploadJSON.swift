import Foundation
import PlazaCore

/// A phone's upload read without `JSONDecoder` (which took a quarter of the server's time on 100-point uploads):
/// `{"points":[{"latitude":…,"longitude":…,"accuracy":…,"recordedAt":"…"},…]}`, keys in any order, `accuracy`
/// optional or null, dates as `RFC3339.parse` reads them. Anything else goes to `JSONDecoder` (see `FastJSONDecodable`).
extension LocationUpload: FastJSONDecodable {
    init?(json bytes: UnsafeRawBufferPointer) {
        var cursor = JSONCursor(bytes)
        guard cursor.take(0x7B), let key = cursor.string(), JSONCursor.matches(key, "points"), cursor.take(0x3A),
            cursor.take(0x5B)
        else { return nil }
        var points: [LocationPoint] = []
        points.reserveCapacity(bytes.count / 80)
        if !cursor.take(0x5D) {
            repeat {
                guard let point = LocationPoint(&cursor) else { return nil }
                points.append(point)
            } while cursor.take(0x2C)
            guard cursor.take(0x5D) else { return nil }
        }
        guard cursor.take(0x7D), cursor.atEnd else { return nil }
        self.init(points: points)
    }
}

extension LocationPoint {
    fileprivate init?(_ cursor: inout JSONCursor) {
        guard cursor.take(0x7B) else { return nil }
        var latitude: Double?
        var longitude: Double?
        var accuracy: Double??
        var recordedAt: Date?
        repeat {
            guard let key = cursor.string(), cursor.take(0x3A) else { return nil }
            if JSONCursor.matches(key, "latitude"), latitude == nil {
                guard let value = cursor.number() else { return nil }
                latitude = value
            } else if JSONCursor.matches(key, "longitude"), longitude == nil {
                guard let value = cursor.number() else { return nil }
                longitude = value
            } else if JSONCursor.matches(key, "accuracy"), accuracy == nil {
                if cursor.takeNull() {
                    accuracy = .some(nil)
                } else {
                    guard let value = cursor.number() else { return nil }
                    accuracy = value
                }
            } else if JSONCursor.matches(key, "recordedAt"), recordedAt == nil {
                guard let text = cursor.string(),
                    let date = RFC3339.parse(utf8: text.assumingMemoryBound(to: UInt8.self))
                else { return nil }
                recordedAt = date
            } else {
                return nil
            }
        } while cursor.take(0x2C)
        guard cursor.take(0x7D), let latitude, let longitude, let recordedAt else { return nil }
        self.init(latitude: latitude, longitude: longitude, accuracy: accuracy ?? nil, recordedAt: recordedAt)
    }
}
