import Foundation
import Hummingbird
import HummingbirdCore
import PlazaCore

/// Reading and checking the query and path parameters of the places routes; every failure names its field.
enum Query {
    static func id(_ parameters: Parameters, _ name: String, _ what: String) throws -> UUID {
        guard let id = UUID(uuidString: parameters.get(name) ?? "") else { throw PlazaError.notFound(what) }
        return id
    }

    /// Absent is `nil`; present but empty is an error, except for the pages' forms (`lenient`), which send empty fields.
    static func double(
        _ uri: URI,
        _ name: String,
        in range: ClosedRange<Double>,
        lenient: Bool = false
    ) throws -> Double? {
        guard let text = uri.queryParameters.get(name), !(lenient && text.isEmpty) else { return nil }
        guard let value = Double(decimal: text), range.contains(value) else {
            throw PlazaError.validation(
                field: name,
                say(
                    "Use a number from {min} to {max}.",
                    ["min": range.lowerBound.formatted(), "max": range.upperBound.formatted()]
                )
            )
        }
        return value
    }

    /// `latitude` and `longitude`, both required; both are reported when both are wrong.
    static func point(_ uri: URI, lenient: Bool = false) throws -> Coordinate {
        let latitude = try? double(uri, "latitude", in: -90...90, lenient: lenient)
        let longitude = try? double(uri, "longitude", in: -180...180, lenient: lenient)
        guard let latitude = latitude.flatMap({ $0 }), let longitude = longitude.flatMap({ $0 }) else {
            var validator = Validator()
            validator.check(latitude.flatMap { $0 } != nil, "latitude", phrase("Use a latitude from -90 to 90."))
            validator.check(longitude.flatMap { $0 } != nil, "longitude", phrase("Use a longitude from -180 to 180."))
            throw PlazaError.validation(validator.errors)
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `true` or `false`; nil when absent.
    static func bool(_ uri: URI, _ name: String) throws -> Bool? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw PlazaError.validation(field: name, phrase("Use true or false."))
        }
    }

    static func category(_ uri: URI, lenient: Bool = false) throws -> BusinessCategory? {
        guard let text = uri.queryParameters.get("category"), !(lenient && text.isEmpty) else { return nil }
        guard let category = BusinessCategory(rawValue: text) else {
            throw PlazaError.validation(
                field: "category",
                say("Use one of {codes}.", ["codes": BusinessCategory.allCases.map(\.rawValue).joined(separator: ", ")])
            )
        }
        return category
    }

    /// An ISO 8601 instant (`2026-11-23T10:00:00Z`) or a day (`2026-11-23`, midnight UTC).
    static func date(_ uri: URI, _ name: String) throws -> Date? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        if let date = PlazaJSON.parseDate(text) { return date }
        if let day = PlazaJSON.parseDate("\(text)T00:00:00Z") { return day }
        throw PlazaError.validation(
            field: name,
            phrase("Use an ISO 8601 time such as 2026-11-23T10:00:00Z, or a day such as 2026-11-23.")
        )
    }

    /// `bbox=west,south,east,north` in degrees (RFC 7946 order); west may exceed east across the antimeridian.
    static func bbox(_ uri: URI) throws -> (west: Double, south: Double, east: Double, north: Double) {
        let parts = (uri.queryParameters.get("bbox") ?? "").split(separator: ",").map {
            Double(decimal: $0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3],
            [west, east].allSatisfy({ $0.isFinite && abs($0) <= 180 }),
            [south, north].allSatisfy({ $0.isFinite && abs($0) <= 90 }), south <= north
        else {
            throw PlazaError.validation(
                field: "bbox",
                phrase("Use west,south,east,north in degrees, south not above north.")
            )
        }
        return (west, south, east, north)
    }
}
