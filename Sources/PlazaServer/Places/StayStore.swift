import Foundation
import PlazaCore
import SQLKit

/// An open or closed stay of one user at one location.
package struct StayRecord: Sendable, Equatable {
    package var id: UUID
    package var userId: UUID
    package var locationId: UUID
    package var enteredAt: Date
    package var lastSeenAt: Date

    package init(id: UUID, userId: UUID, locationId: UUID, enteredAt: Date, lastSeenAt: Date) {
        (self.id, self.userId, self.locationId, self.enteredAt, self.lastSeenAt) = (
            id, userId, locationId, enteredAt, lastSeenAt
        )
    }
}

/// All SQL about stays, the visit counts derived from them, and line-wait reports.
package struct StayStore: Sendable {
    package init() {}

    private static let columns = ["id", "user_id", "location_id", "entered_at", "last_seen_at"]

    func openStays(user: UUID, on db: any SQLDatabase) async throws -> [StayRecord] {
        try await db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("stays").where(
            "user_id",
            .equal,
            user
        )
        .where("exited_at", .is, SQLLiteral.null).all().map(Self.stay(row:))
    }

    /// Every open stay seen since `since` (the live index's rebuild).
    func open(since: Date, on db: any SQLDatabase) async throws -> [StayRecord] {
        try await db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("stays").where(
            "exited_at",
            .is,
            SQLLiteral.null
        )
        .where("last_seen_at", .greaterThanOrEqual, SQLBind(since)).all().map(Self.stay(row:))
    }

    package func insert(_ stay: StayRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "stays").columns(Self.columns + ["exited_at"])
            .values(
                SQLBind(stay.id),
                SQLBind(stay.userId),
                SQLBind(stay.locationId),
                SQLBind(stay.enteredAt),
                SQLBind(stay.lastSeenAt),
                SQLLiteral.null
            ).run()
    }

    /// Moves each stay's last sighting to its `lastSeenAt`, in one statement.
    func touch(_ seen: [StayRecord], on db: any SQLDatabase) async throws {
        guard !seen.isEmpty else { return }
        var times: SQLQueryString = ""
        for stay in seen { times += " WHEN \(bind: stay.id) THEN \(bind: stay.lastSeenAt)" }
        let ids = seen.map(\.id)
        try await db.raw("UPDATE stays SET last_seen_at = CASE id\(times) END WHERE id IN (\(binds: ids))").run()
    }

    /// Closes the stay once: true for the caller that closed it (who then counts the visit and says so).
    func close(_ stay: UUID, at time: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("stays").set("exited_at", to: time).where("id", .equal, stay).where(
            "exited_at",
            .is,
            SQLLiteral.null
        )
        .returning("id").first() != nil
    }

    /// Open stays whose user went quiet before `cutoff`.
    func stale(before cutoff: Date, limit: Int, on db: any SQLDatabase) async throws -> [StayRecord] {
        try await db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("stays").where(
            "exited_at",
            .is,
            SQLLiteral.null
        )
        .where("last_seen_at", .lessThan, cutoff).limit(limit).all().map(Self.stay(row:))
    }

    /// Whether the user stayed at the location at any time since `since`.
    func wasPresent(user: UUID, location: UUID, since: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("stays").where("user_id", .equal, user).where(
            "location_id",
            .equal,
            location
        )
        .where("last_seen_at", .greaterThanOrEqual, since).first() != nil
    }

    /// Whether the user is in one of the business's locations now: an open stay seen since `since`.
    func isPresent(user: UUID, business: UUID, since: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column(SQLColumn("id", table: "s"))
            .from(SQLAlias(SQLIdentifier("stays"), as: SQLIdentifier("s")))
            .join(
                SQLAlias(SQLIdentifier("business_locations"), as: SQLIdentifier("l")),
                method: SQLJoinMethod.inner,
                on: SQLBinaryExpression(SQLColumn("id", table: "l"), .equal, SQLColumn("location_id", table: "s"))
            )
            .where(SQLColumn("user_id", table: "s"), .equal, SQLBind(user)).where(
                SQLColumn("business_id", table: "l"),
                .equal,
                SQLBind(business)
            )
            .where(SQLColumn("exited_at", table: "s"), .is, SQLLiteral.null).where(
                SQLColumn("last_seen_at", table: "s"),
                .greaterThanOrEqual,
                SQLBind(since)
            )
            .first() != nil
    }

    /// Closed stays ended before `cutoff` lose their link to the person (the hourly counts stay).
    func purge(before cutoff: Date, on db: any SQLDatabase) async throws {
        try await db.delete(from: "stays").where("exited_at", .lessThan, cutoff).run()
    }

    static func stay(row: any SQLRow) throws -> StayRecord {
        StayRecord(
            id: try row.decode(column: "id", as: UUID.self),
            userId: try row.decode(column: "user_id", as: UUID.self),
            locationId: try row.decode(column: "location_id", as: UUID.self),
            enteredAt: try row.decode(column: "entered_at", as: Date.self),
            lastSeenAt: try row.decode(column: "last_seen_at", as: Date.self)
        )
    }

    // MARK: Visits

    /// Notes that the person behind `mark` visited the location in this weekday-and-hour cell, in the hour starting at
    /// `hourStart`: false when they were counted in that very hour already (a second stay in one hour is no new visit).
    func markPerson(
        _ mark: String,
        location: UUID,
        weekday: Int,
        hour: Int,
        hourStart: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let counted = try await db.select().column("last_seen").from("visit_people").where(
            "location_id",
            .equal,
            location
        )
        .where("weekday", .equal, weekday).where("hour", .equal, hour).where("person_mark", .equal, mark).first()
        .map { try $0.decode(column: "last_seen", as: Date.self) }
        if let counted, counted >= hourStart { return false }
        try await db.insert(into: "visit_people").columns("location_id", "weekday", "hour", "person_mark", "last_seen")
            .values(SQLBind(location), SQLBind(weekday), SQLBind(hour), SQLBind(mark), SQLBind(hourStart))
            .onConflict(with: ["location_id", "weekday", "hour", "person_mark"]) {
                $0.set(excludedValueOf: "last_seen")
            }
            .run()
        return true
    }

    /// Distinct people per weekday-and-hour cell (`weekday * 24 + hour`, weekday 1 to 7) seen since `since`.
    func people(locations: [UUID], since: Date, on db: any SQLDatabase) async throws -> [UUID: [Int: Int]] {
        guard !locations.isEmpty else { return [:] }
        var result: [UUID: [Int: Int]] = [:]
        for row in try await db.select().column("location_id").column("weekday").column("hour").column(
            SQLFunction("COUNT", args: SQLLiteral.all),
            as: "people"
        )
        .from("visit_people").where("location_id", .in, SQLBind.group(locations)).where(
            "last_seen",
            .greaterThanOrEqual,
            since
        )
        .groupBy("location_id").groupBy("weekday").groupBy("hour").all() {
            let cell = try row.decode(column: "weekday", as: Int.self) * 24 + row.decode(column: "hour", as: Int.self)
            result[try row.decode(column: "location_id", as: UUID.self), default: [:]][cell] = try row.decode(
                column: "people",
                as: Int.self
            )
        }
        return result
    }

    /// Marks no popular-times window reaches any more.
    func purgePeople(before cutoff: Date, on db: any SQLDatabase) async throws {
        try await db.delete(from: "visit_people").where("last_seen", .lessThan, cutoff).run()
    }

    /// Counts one visit in the hour starting at `hourStart`.
    func countVisit(location: UUID, hourStart: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "visit_hours").columns("location_id", "hour_start", "visits")
            .values(SQLBind(location), SQLBind(hourStart), SQLLiteral.numeric("1"))
            .onConflict(with: ["location_id", "hour_start"]) {
                $0.set(
                    "visits",
                    to: SQLBinaryExpression(SQLColumn("visits", table: "visit_hours"), .add, SQLLiteral.numeric("1"))
                )
            }
            .run()
    }

    func visitHours(
        location: UUID,
        since: Date,
        on db: any SQLDatabase
    ) async throws -> [(hourStart: Date, visits: Int)] {
        try await db.select().columns("hour_start", "visits").from("visit_hours").where("location_id", .equal, location)
            .where("hour_start", .greaterThanOrEqual, since).all()
            .map { (try $0.decode(column: "hour_start", as: Date.self), try $0.decode(column: "visits", as: Int.self)) }
    }

    // MARK: Line waits

    package func insertLineWait(
        location: UUID,
        user: UUID,
        minutes: Int,
        at time: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.insert(into: "line_waits").columns("id", "location_id", "user_id", "minutes", "reported_at")
            .values(SQLBind(UUID()), SQLBind(location), SQLBind(user), SQLBind(minutes), SQLBind(time)).run()
    }

    /// When the user last reported at the location, if since `since`.
    func lastLineWait(location: UUID, user: UUID, since: Date, on db: any SQLDatabase) async throws -> Date? {
        try await db.select().column("reported_at").from("line_waits").where("location_id", .equal, location).where(
            "user_id",
            .equal,
            user
        )
        .where("reported_at", .greaterThanOrEqual, since).orderBy("reported_at", .descending).first()
        .map { try $0.decode(column: "reported_at", as: Date.self) }
    }

    func lineWaits(
        location: UUID,
        since: Date,
        on db: any SQLDatabase
    ) async throws -> [(minutes: Int, reportedAt: Date)] {
        try await db.select().columns("minutes", "reported_at").from("line_waits").where(
            "location_id",
            .equal,
            location
        )
        .where("reported_at", .greaterThanOrEqual, since).orderBy("reported_at", .descending).all()
        .map { (try $0.decode(column: "minutes", as: Int.self), try $0.decode(column: "reported_at", as: Date.self)) }
    }

    /// Reports older than `cutoff` go; those older than a day lose their reporter.
    func purgeLineWaits(before cutoff: Date, anonymizeBefore: Date, on db: any SQLDatabase) async throws {
        try await db.delete(from: "line_waits").where("reported_at", .lessThan, cutoff).run()
        try await db.update("line_waits").set("user_id", to: SQLLiteral.null).where(
            "reported_at",
            .lessThan,
            anonymizeBefore
        )
        .where("user_id", .isNot, SQLLiteral.null).run()
    }
}

extension StayStore {
    /// Hourly visit counts of several locations at once (the map).
    func visitHours(
        locations: [UUID],
        since: Date,
        on db: any SQLDatabase
    ) async throws -> [UUID: [(hourStart: Date, visits: Int)]] {
        guard !locations.isEmpty else { return [:] }
        var result: [UUID: [(hourStart: Date, visits: Int)]] = [:]
        for row in try await db.select().columns("location_id", "hour_start", "visits").from("visit_hours")
            .where("location_id", .in, SQLBind.group(locations)).where("hour_start", .greaterThanOrEqual, since).all()
        {
            result[try row.decode(column: "location_id", as: UUID.self), default: []].append(
                (try row.decode(column: "hour_start", as: Date.self), try row.decode(column: "visits", as: Int.self))
            )
        }
        return result
    }

    /// Recent line-wait reports of several locations at once (the map).
    func lineWaits(
        locations: [UUID],
        since: Date,
        on db: any SQLDatabase
    ) async throws -> [UUID: [(minutes: Int, reportedAt: Date)]] {
        guard !locations.isEmpty else { return [:] }
        var result: [UUID: [(minutes: Int, reportedAt: Date)]] = [:]
        for row in try await db.select().columns("location_id", "minutes", "reported_at").from("line_waits")
            .where("location_id", .in, SQLBind.group(locations)).where("reported_at", .greaterThanOrEqual, since).all()
        {
            result[try row.decode(column: "location_id", as: UUID.self), default: []].append(
                (try row.decode(column: "minutes", as: Int.self), try row.decode(column: "reported_at", as: Date.self))
            )
        }
        return result
    }
}
