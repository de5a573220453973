import Foundation
import PlazaCore

/// The live index's people, packed for a million of them: a column per field, indexed by a slot; an open-addressing
/// table from a person to their slot; a grid whose cells list slots. Names and stays are kept only for those with an
/// open stay, the only ones a presence list names. About 70 bytes a person (`plaza bench live-index`), where a
/// dictionary per cell and per person took 349. Not thread-safe: `LiveIndex` guards it.
struct LivePeople {
    /// What a presence list shows of someone staying at a business location.
    struct Staying {
        var username: String
        var displayName: String
        var stays: [OpenStay]
    }

    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let live = Flags(rawValue: 1)
        /// Sharing, and not inside one of their private zones.
        static let countable = Flags(rawValue: 2)
        static let staying = Flags(rawValue: 4)
    }

    private var ids: [UUID] = []
    private var latitudes: [Double] = []
    private var longitudes: [Double] = []
    /// `recordedAt` as seconds since the reference date.
    private var times: [Double] = []
    private var flags: [Flags] = []
    /// Each slot's place in its cell's list (a removal swaps the last one in).
    private var places: [Int32] = []
    private var freeSlots: [Int32] = []
    private var staying: [Int32: Staying] = [:]
    private var cells: [Int: [Int32]] = [:]
    private let geometry = GeoCells(cellDegrees: 0.002)
    /// Slots by a hash of the person (linear probing, -1 empty), never fuller than 70 %.
    private var table = [Int32](repeating: -1, count: 1_024)
    private(set) var count = 0

    // MARK: People

    func slot(of user: UUID) -> Int32? {
        let mask = table.count - 1
        var index = Self.hash(user) & mask
        while true {
            let slot = table[index]
            if slot < 0 { return nil }
            if ids[Int(slot)] == user { return slot }
            index = (index + 1) & mask
        }
    }

    func recordedAt(_ slot: Int32) -> Date {
        Date(timeIntervalSinceReferenceDate: times[Int(slot)])
    }

    func coordinate(_ slot: Int32) -> Coordinate {
        Coordinate(latitude: latitudes[Int(slot)], longitude: longitudes[Int(slot)])
    }

    func isCountable(_ slot: Int32) -> Bool { flags[Int(slot)].contains(.countable) }

    func staying(_ slot: Int32) -> Staying? {
        flags[Int(slot)].contains(.staying) ? staying[slot] : nil
    }

    func user(_ slot: Int32) -> UUID { ids[Int(slot)] }

    /// Adds or moves the person of `position`; returns their slot.
    @discardableResult
    mutating func put(_ position: LivePosition) -> Int32 {
        let cell = geometry.cellIndex(of: position.coordinate)
        let slot = self.slot(of: position.userId) ?? takeSlot(for: position.userId)
        // Leaving reads the cell from the old coordinate: before the fields change.
        if places[Int(slot)] >= 0, geometry.cellIndex(of: coordinate(slot)) != cell { leaveCell(slot) }
        setFields(slot, position)
        if places[Int(slot)] < 0 { enterCell(slot, cell) }
        return slot
    }

    mutating func remove(_ user: UUID) {
        guard let slot = slot(of: user) else { return }
        leaveCell(slot)
        removeFromTable(user)
        flags[Int(slot)] = []
        staying[slot] = nil
        freeSlots.append(slot)
        count -= 1
    }

    /// The people `predicate` picks (given a slot).
    func users(where predicate: (Int32) -> Bool) -> [UUID] {
        var found: [UUID] = []
        for index in flags.indices where flags[index].contains(.live) && predicate(Int32(index)) {
            found.append(ids[index])
        }
        return found
    }

    private mutating func setFields(_ slot: Int32, _ position: LivePosition) {
        let index = Int(slot)
        latitudes[index] = position.latitude
        longitudes[index] = position.longitude
        times[index] = position.recordedAt.timeIntervalSinceReferenceDate
        var flags: Flags = .live
        if position.level != .off && position.zoneId == nil { flags.insert(.countable) }
        if position.stays.isEmpty {
            if self.flags[index].contains(.staying) { staying[slot] = nil }
        } else {
            flags.insert(.staying)
            staying[slot] = Staying(
                username: position.username,
                displayName: position.displayName,
                stays: position.stays
            )
        }
        self.flags[index] = flags
    }

    private mutating func takeSlot(for user: UUID) -> Int32 {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            ids[Int(slot)] = user
        } else {
            slot = Int32(ids.count)
            ids.append(user)
            latitudes.append(0)
            longitudes.append(0)
            times.append(0)
            flags.append([])
            places.append(-1)
        }
        places[Int(slot)] = -1
        insertIntoTable(slot)
        count += 1
        return slot
    }

    // MARK: The table

    /// SplitMix64's finaliser over both halves of the id (ids need not be random).
    private static func hash(_ user: UUID) -> Int {
        let bytes = user.uuid
        let high = withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self) }
        let low = withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
        var z = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: z ^ (z >> 31))
    }

    private mutating func insertIntoTable(_ slot: Int32) {
        if (count + 1) * 10 > table.count * 7 { growTable() }
        let mask = table.count - 1
        var index = Self.hash(ids[Int(slot)]) & mask
        while table[index] >= 0 { index = (index + 1) & mask }
        table[index] = slot
    }

    private mutating func growTable() {
        let old = table
        table = [Int32](repeating: -1, count: old.count * 2)
        let mask = table.count - 1
        for slot in old where slot >= 0 {
            var index = Self.hash(ids[Int(slot)]) & mask
            while table[index] >= 0 { index = (index + 1) & mask }
            table[index] = slot
        }
    }

    /// Linear probing's deletion: later entries of the same run move back into the hole, so no lookup stops early.
    private mutating func removeFromTable(_ user: UUID) {
        let mask = table.count - 1
        var hole = Self.hash(user) & mask
        while ids[Int(table[hole])] != user { hole = (hole + 1) & mask }
        var next = hole
        while true {
            next = (next + 1) & mask
            let slot = table[next]
            if slot < 0 { break }
            let home = Self.hash(ids[Int(slot)]) & mask
            // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !stays {
                table[hole] = slot
                hole = next
            }
        }
        table[hole] = -1
    }

    // MARK: The grid

    private mutating func enterCell(_ slot: Int32, _ cell: Int) {
        cells[cell, default: []].append(slot)
        places[Int(slot)] = Int32(cells[cell]!.count - 1)
    }

    private mutating func leaveCell(_ slot: Int32) {
        let place = Int(places[Int(slot)])
        guard place >= 0 else { return }
        let cell = geometry.cellIndex(of: coordinate(slot))
        guard var list = cells.removeValue(forKey: cell) else { return }
        let last = list.removeLast()
        if last != slot {
            list[place] = last
            places[Int(last)] = Int32(place)
        }
        if !list.isEmpty { cells[cell] = list }
        places[Int(slot)] = -1
    }

    /// Visits every live person within `radius` metres of `center`.
    func forEach(within radius: Double, of center: Coordinate, _ body: (Int32) -> Void) {
        let reach = center.reach(radius: radius)
        geometry.forEachCell(
            in: cells,
            latitudes: center.latitude - reach.latitude...center.latitude + reach.latitude,
            longitudeCenter: center.longitude,
            longitudeHalfWidth: reach.longitude
        ) { list in
            for slot in list {
                let index = Int(slot)
                // The circle's bounding box first: most of a cell's people beyond it cost no trigonometry.
                guard abs(latitudes[index] - center.latitude) <= reach.latitude else { continue }
                if let halfWidth = reach.longitude,
                    abs(Coordinate.wrapLongitude(longitudes[index] - center.longitude)) > halfWidth
                {
                    continue
                }
                if center.distance(to: coordinate(slot)) <= radius { body(slot) }
            }
        }
    }
}
