import Foundation
import PlazaCore

/// The cells of a spatial index on the sphere: rows of equal latitude height, each cut into as many columns as keep
/// cells roughly square (fewer towards the poles, one at each pole), so a cell is about `cellDegrees` of latitude wide
/// everywhere. A cell is named by an `Int` (row in the high half, column in the low); the index keeps only cells that
/// hold points, in a dictionary of its own choosing. A box visits its cells, wrapping across the antimeridian and
/// taking whole rows where it reaches a pole.
struct GeoCells: Sendable {
    let cellDegrees: Double
    private let rowCount: Int

    init(cellDegrees: Double) {
        self.cellDegrees = cellDegrees
        rowCount = Int((180 / cellDegrees).rounded(.up))
    }

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

    func cellIndex(of coordinate: Coordinate) -> Int {
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

    /// Calls `body` with each bucket of `cells` (keyed by `cellIndex`) in the box: `latitudes` high, `longitudeCenter`
    /// ± `longitudeHalfWidth` wide (nil: every longitude).
    func forEachCell<Bucket>(
        in cells: [Int: Bucket],
        latitudes: ClosedRange<Double>,
        longitudeCenter: Double,
        longitudeHalfWidth: Double?,
        _ body: (Bucket) -> Void
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

    /// Calls `body` with each bucket of `cells` in the bounding box `reach` of a circle around `center`
    /// (`Coordinate.reach(radius:)`).
    func forEachCell<Bucket>(
        in cells: [Int: Bucket],
        around center: Coordinate,
        reach: (latitude: Double, longitude: Double?),
        _ body: (Bucket) -> Void
    ) {
        forEachCell(
            in: cells,
            latitudes: center.latitude - reach.latitude...center.latitude + reach.latitude,
            longitudeCenter: center.longitude,
            longitudeHalfWidth: reach.longitude,
            body
        )
    }

    /// The point's distance from `center` when it is within `radius`, else nil. The circle's bounding box `reach` is
    /// tested first: most of a cell's points beyond it cost no trigonometry.
    @inline(__always)
    static func distance(
        latitude: Double,
        longitude: Double,
        within radius: Double,
        of center: Coordinate,
        reach: (latitude: Double, longitude: Double?)
    ) -> Double? {
        guard abs(latitude - center.latitude) <= reach.latitude else { return nil }
        if let halfWidth = reach.longitude, abs(Coordinate.wrapLongitude(longitude - center.longitude)) > halfWidth {
            return nil
        }
        let distance = center.distance(to: Coordinate(latitude: latitude, longitude: longitude))
        return distance <= radius ? distance : nil
    }
}
