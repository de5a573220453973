import Foundation
import PlazaCore

/// A spatial index of points on the sphere: rows of equal latitude height, each cut into as many columns
/// as keep cells roughly square (fewer towards the poles, one at each pole), so a cell is about
/// `cellDegrees` of latitude wide everywhere. Only cells holding points exist.
///
/// A circle query visits the cells of its bounding box (`GeoCells`), then filters by great-circle distance.
/// Not thread-safe: `LiveIndex` guards it.
package struct GeoGrid<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package struct Entry: Sendable {
        var coordinate: Coordinate
        var value: Value
    }

    let geometry: GeoCells
    private var cells: [Int: [Key: Entry]] = [:]
    private var cellOfKey: [Key: Int] = [:]

    package init(cellDegrees: Double) {
        geometry = GeoCells(cellDegrees: cellDegrees)
    }

    var count: Int { cellOfKey.count }

    func entry(for key: Key) -> Entry? {
        cellOfKey[key].flatMap { cells[$0]?[key] }
    }

    /// Adds the point or moves it to `coordinate`.
    package mutating func upsert(_ key: Key, at coordinate: Coordinate, value: Value) {
        let cell = geometry.cellIndex(of: coordinate)
        if let old = cellOfKey[key], old != cell { removeFromCell(key, old) }
        cellOfKey[key] = cell
        cells[cell, default: [:]][key] = Entry(coordinate: coordinate, value: value)
    }

    mutating func remove(_ key: Key) {
        guard let cell = cellOfKey.removeValue(forKey: key) else { return }
        removeFromCell(key, cell)
    }

    /// Every point within `radius` metres of `center`, with its distance, in no particular order.
    package func within(_ radius: Double, of center: Coordinate) -> [(key: Key, entry: Entry, distance: Double)] {
        var found: [(key: Key, entry: Entry, distance: Double)] = []
        forEach(within: radius, of: center) { key, entry, distance in found.append((key, entry, distance)) }
        return found
    }

    /// Visits every point within `radius` metres of `center`, gathering nothing on the way.
    func forEach(within radius: Double, of center: Coordinate, _ body: (Key, Entry, Double) -> Void) {
        let reach = center.reach(radius: radius)
        geometry.forEachCell(in: cells, around: center, reach: reach) { bucket in
            for (key, entry) in bucket {
                if let distance = GeoCells.distance(
                    latitude: entry.coordinate.latitude,
                    longitude: entry.coordinate.longitude,
                    within: radius,
                    of: center,
                    reach: reach
                ) {
                    body(key, entry, distance)
                }
            }
        }
    }

    /// Every point inside the box; `west > east` means the box crosses the antimeridian.
    func inside(south: Double, west: Double, north: Double, east: Double) -> [(key: Key, entry: Entry)] {
        var found: [(key: Key, entry: Entry)] = []
        let width = west <= east ? east - west : east + 360 - west
        let middle = Coordinate.wrapLongitude(west + width / 2)
        let latitudes = south...north
        geometry.forEachCell(in: cells, latitudes: latitudes, longitudeCenter: middle, longitudeHalfWidth: width / 2) {
            bucket in
            for (key, entry) in bucket where entry.coordinate.latitude >= south && entry.coordinate.latitude <= north {
                let offset = Coordinate.wrapLongitude(entry.coordinate.longitude - west)
                if (offset >= 0 ? offset : offset + 360) <= width { found.append((key, entry)) }
            }
        }
        return found
    }

    private mutating func removeFromCell(_ key: Key, _ cell: Int) {
        cells[cell]?[key] = nil
        if cells[cell]?.isEmpty == true { cells[cell] = nil }
    }
}
