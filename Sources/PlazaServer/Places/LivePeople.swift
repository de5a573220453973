import Foundation
import PlazaCore

/// The live index's people, packed for a million of them: a grid whose cells hold what a circle query reads of each
/// person side by side (where, when, whether they count), an array of ids by slot, and an open-addressing table from a
/// person to their slot. Names and stays are kept only for those with an open stay, the only ones a presence list
/// names. About 90 bytes a person (`plaza bench live-index`), where a dictionary per cell and per person took 349.
/// Not thread-safe: `LiveIndex` guards it.
struct LivePeople {
    /// What a presence list shows of someone staying at a business location.
    struct Staying {
        var username: String
        var displayName: String
        var stays: [OpenStay]
    }

    /// What a circle query reads of a person, stored in their cell.
    struct Person {
        var latitude: Double
        var longitude: Double
        /// `recordedAt` as seconds since the reference date.
        var time: Double
        var slot: Int32
        fileprivate var flags: Flags

        var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
        var recordedAt: Date { Date(timeIntervalSinceReferenceDate: time) }
        /// Sharing, and not inside one of their private zones.
        var isCountable: Bool { flags.contains(.countable) }
        var isStaying: Bool { flags.contains(.staying) }
    }

    fileprivate struct Flags: OptionSet {
        let rawValue: UInt8
        static let countable = Flags(rawValue: 1)
        static let staying = Flags(rawValue: 2)
    }

    private var ids: [UUID] = []
    /// Each slot's cell (`free` for a slot nobody holds) and place in the cell's list (a removal swaps the last one in).
    private var cellOf: [Int] = []
    private var places: [Int32] = []
    private static let free = Int.min
    private var freeSlots: [Int32] = []
    private var staying: [Int32: Staying] = [:]
    private var cells: [Int: [Person]] = [:]
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

    func person(_ slot: Int32) -> Person {
        cells[cellOf[Int(slot)]]![Int(places[Int(slot)])]
    }

    func user(_ slot: Int32) -> UUID { ids[Int(slot)] }

    func staying(_ slot: Int32) -> Staying? { staying[slot] }

    /// Adds or moves the person of `position`; returns their slot.
    @discardableResult
    mutating func put(_ position: LivePosition) -> Int32 {
        let cell = geometry.cellIndex(of: position.coordinate)
        let slot = self.slot(of: position.userId) ?? takeSlot(for: position.userId)
        var flags: Flags = []
        if position.level != .off && position.zoneId == nil { flags.insert(.countable) }
        if position.stays.isEmpty {
            staying[slot] = nil
        } else {
            flags.insert(.staying)
            staying[slot] = Staying(
                username: position.username,
                displayName: position.displayName,
                stays: position.stays
            )
        }
        let person = Person(
            latitude: position.latitude,
            longitude: position.longitude,
            time: position.recordedAt.timeIntervalSinceReferenceDate,
            slot: slot,
            flags: flags
        )
        if cellOf[Int(slot)] == cell {
            cells[cell]![Int(places[Int(slot)])] = person
        } else {
            leaveCell(slot)
            cells[cell, default: []].append(person)
            cellOf[Int(slot)] = cell
            places[Int(slot)] = Int32(cells[cell]!.count - 1)
        }
        return slot
    }

    mutating func remove(_ user: UUID) {
        guard let slot = slot(of: user) else { return }
        leaveCell(slot)
        removeFromTable(user)
        staying[slot] = nil
        freeSlots.append(slot)
        count -= 1
    }

    /// The people `predicate` picks.
    func users(where predicate: (Person) -> Bool) -> [UUID] {
        var found: [UUID] = []
        for list in cells.values {
            for person in list where predicate(person) { found.append(ids[Int(person.slot)]) }
        }
        return found
    }

    private mutating func takeSlot(for user: UUID) -> Int32 {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            ids[Int(slot)] = user
        } else {
            slot = Int32(ids.count)
            ids.append(user)
            cellOf.append(Self.free)
            places.append(-1)
        }
        insertIntoTable(slot)
        count += 1
        return slot
    }

    private mutating func leaveCell(_ slot: Int32) {
        let cell = cellOf[Int(slot)]
        guard cell != Self.free, var list = cells.removeValue(forKey: cell) else { return }
        let place = Int(places[Int(slot)])
        let last = list.removeLast()
        if last.slot != slot {
            list[place] = last
            places[Int(last.slot)] = Int32(place)
        }
        if !list.isEmpty { cells[cell] = list }
        cellOf[Int(slot)] = Self.free
        places[Int(slot)] = -1
    }

    /// Visits every person within `radius` metres of `center`.
    func forEach(within radius: Double, of center: Coordinate, _ body: (Person) -> Void) {
        let reach = center.reach(radius: radius)
        geometry.forEachCell(in: cells, around: center, reach: reach) { list in
            for person in list
            where GeoCells.distance(
                latitude: person.latitude,
                longitude: person.longitude,
                within: radius,
                of: center,
                reach: reach
            ) != nil {
                body(person)
            }
        }
    }

    // MARK: The table

    /// SplitMix64's finaliser over both halves of the id (ids need not be random).
    private static func hash(_ user: UUID) -> Int {
        let (high, low) = withUnsafeBytes(of: user.uuid) {
            ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
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
}
