import Foundation
import PlazaCore

/// A spatial index of points on the sphere: rows of equal latitude height, each cut into as many columns
/// as keep cells roughly square (fewer towards the poles, one at each pole), so a cell is about
/// `cellDegrees` of latitude wide everywhere. Only cells holding points exist.
///
/// A circle query visits the cells of its bounding box, wrapping across the antimeridian and taking
/// whole rows where the circle reaches a pole, then filters by great-circle distance.
/// Not thread-safe: `LiveIndex` guards it.
package struct GeoGrid<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package struct Entry: Sendable {
        var coordinate: Coordinate
        var value: Value
    }

    let cellDegrees: Double
    private let rowCount: Int
    private var cells: [Int: [Key: Entry]] = [:]
    private var cellOfKey: [Key: Int] = [:]

    package init(cellDegrees: Double) {
        self.cellDegrees = cellDegrees
        rowCount = Int((180 / cellDegrees).rounded(.up))
    }

    var count: Int { cellOfKey.count }

    func entry(for key: Key) -> Entry? {
        cellOfKey[key].flatMap { cells[$0]?[key] }
    }

    /// Adds the point or moves it to `coordinate`.
    package mutating func upsert(_ key: Key, at coordinate: Coordinate, value: Value) {
        let cell = cellIndex(of: coordinate)
        if let old = cellOfKey[key], old != cell { removeFromCell(key, old) }
        cellOfKey[key] = cell
        cells[cell, default: [:]][key] = Entry(coordinate: coordinate, value: value)
    }

    mutating func remove(_ key: Key) {
        guard let cell = cellOfKey.removeValue(forKey: key) else { return }
        removeFromCell(key, cell)
    }

    /// The keys of the points `predicate` picks.
    func allKeys(where predicate: (Entry) -> Bool) -> [Key] {
        cells.values.flatMap { bucket in bucket.compactMap { predicate($0.value) ? $0.key : nil } }
    }

    /// Removes every point `predicate` picks; returns how many.
    @discardableResult
    mutating func removeAll(where predicate: (Key, Entry) -> Bool) -> Int {
        var doomed: [Key] = []
        for bucket in cells.values {
            for (key, entry) in bucket where predicate(key, entry) { doomed.append(key) }
        }
        for key in doomed { remove(key) }
        return doomed.count
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
        forEachCell(
            latitudes: center.latitude - reach.latitude...center.latitude + reach.latitude,
            longitudeCenter: center.longitude,
            longitudeHalfWidth: reach.longitude
        ) { bucket in
            for (key, entry) in bucket {
                // The circle's bounding box first: most of a cell's points beyond it cost no trigonometry.
                guard abs(entry.coordinate.latitude - center.latitude) <= reach.latitude else { continue }
                if let halfWidth = reach.longitude,
                    abs(Coordinate.wrapLongitude(entry.coordinate.longitude - center.longitude)) > halfWidth
                {
                    continue
                }
                let distance = center.distance(to: entry.coordinate)
                if distance <= radius { body(key, entry, distance) }
            }
        }
    }

    /// Every point inside the box; `west > east` means the box crosses the antimeridian.
    func inside(south: Double, west: Double, north: Double, east: Double) -> [(key: Key, entry: Entry)] {
        var found: [(key: Key, entry: Entry)] = []
        let width = west <= east ? east - west : east + 360 - west
        let middle = Coordinate.wrapLongitude(west + width / 2)
        forEachCell(latitudes: south...north, longitudeCenter: middle, longitudeHalfWidth: width / 2) { bucket in
            for (key, entry) in bucket where entry.coordinate.latitude >= south && entry.coordinate.latitude <= north {
                let offset = Coordinate.wrapLongitude(entry.coordinate.longitude - west)
                if (offset >= 0 ? offset : offset + 360) <= width { found.append((key, entry)) }
            }
        }
        return found
    }

    // MARK: Cells

    private func row(of latitude: Double) -> Int {
        min(rowCount - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
    }

    private func columns(inRow row: Int) -> Int {
        let middle = -90 + (Double(row) + 0.5) * cellDegrees
        return max(1, Int((360 * cos(middle * .pi / 180) / cellDegrees).rounded(.down)))
    }

    private func column(of longitude: Double, columns: Int) -> Int {
        let position = (Coordinate.wrapLongitude(longitude) + 180) / 360 * Double(columns)
        return min(columns - 1, max(0, Int(position.rounded(.down))))
    }

    private func cellIndex(of coordinate: Coordinate) -> Int {
        let row = row(of: coordinate.latitude)
        return row << 32 | column(of: coordinate.longitude, columns: columns(inRow: row))
    }

    /// The centre of the cell holding `coordinate` (used to snap published positions).
    func cellCenter(of coordinate: Coordinate) -> (cell: Int, center: Coordinate) {
        let row = row(of: coordinate.latitude)
        let columns = columns(inRow: row)
        let column = column(of: coordinate.longitude, columns: columns)
        let latitude = -90 + (Double(row) + 0.5) * cellDegrees
        let longitude = -180 + (Double(column) + 0.5) * 360 / Double(columns)
        return (row << 32 | column, Coordinate(latitude: min(90, latitude), longitude: longitude))
    }

    private func forEachCell(
        latitudes: ClosedRange<Double>,
        longitudeCenter: Double,
        longitudeHalfWidth: Double?,
        _ body: ([Key: Entry]) -> Void
    ) {
        for row in row(of: latitudes.lowerBound)...row(of: latitudes.upperBound) {
            let columns = columns(inRow: row)
            var first = 0
            var last = columns - 1
            if let halfWidth = longitudeHalfWidth, halfWidth * 2 < 360 {
                first = column(of: longitudeCenter - halfWidth, columns: columns)
                last = column(of: longitudeCenter + halfWidth, columns: columns)
                if last < first { last += columns }  // wraps across the antimeridian
                if last - first + 1 >= columns { (first, last) = (0, columns - 1) }
            }
            // Rows with many columns but few occupied cells (near a pole, or a huge box) are cheaper by scan.
            if last - first + 1 > cells.count {
                for (index, bucket) in cells where index >> 32 == row {
                    let column = index & 0xFFFF_FFFF
                    if (first...last).contains(column) || (first...last).contains(column + columns) { body(bucket) }
                }
                continue
            }
            for column in first...last {
                if let bucket = cells[row << 32 | (column % columns)] { body(bucket) }
            }
        }
    }

    private mutating func removeFromCell(_ key: Key, _ cell: Int) {
        cells[cell]?[key] = nil
        if cells[cell]?.isEmpty == true { cells[cell] = nil }
    }
}
