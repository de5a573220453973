import Foundation

extension Coordinate {
    /// The mean Earth radius in metres (IUGG), the sphere all Plaza distances are measured on.
    public static let earthRadius = 6_371_008.8

    /// The point `distance` metres away along the great circle leaving at `bearing` radians (0 = north,
    /// clockwise), with longitude wrapped into -180…180.
    public func destination(distance: Double, bearing: Double) -> Coordinate {
        let delta = distance / Self.earthRadius
        let lat1 = latitude * .pi / 180
        let lon1 = longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(delta) + cos(lat1) * sin(delta) * cos(bearing))
        let lon2 = lon1 + atan2(sin(bearing) * sin(delta) * cos(lat1), cos(delta) - sin(lat1) * sin(lat2))
        return Coordinate(latitude: lat2 * 180 / .pi, longitude: Self.wrapLongitude(lon2 * 180 / .pi))
    }

    /// `longitude` folded into -180…180.
    public static func wrapLongitude(_ longitude: Double) -> Double {
        var value = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value - 180
    }

    /// The latitude and longitude half-widths in degrees of a box holding every point within `radius`
    /// metres. `longitude` is `nil` when the circle reaches a pole: every longitude is then in reach.
    public func reach(radius: Double) -> (latitude: Double, longitude: Double?) {
        let delta = radius / Self.earthRadius
        let dLat = delta * 180 / .pi
        let lat = latitude * .pi / 180
        guard abs(latitude) + dLat < 90, delta < .pi / 2 else { return (dLat, nil) }
        let ratio = sin(delta) / cos(lat)
        guard ratio < 1 else { return (dLat, nil) }
        return (dLat, asin(ratio) * 180 / .pi)
    }

    /// The point `north` metres north (negative: south), then `east` metres east (negative: west) of this one.
    public func offset(north: Double = 0, east: Double = 0) -> Coordinate {
        destination(distance: north.magnitude, bearing: north >= 0 ? 0 : .pi).destination(
            distance: east.magnitude,
            bearing: east >= 0 ? .pi / 2 : -.pi / 2
        )
    }
}
