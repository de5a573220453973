import Foundation
import SQLKit

/// Counts events per (bucket, subject) over a sliding window in the database, so that every Plaza
/// process on one PostgreSQL shares the same counts.
struct RateLimiter: Sendable {
    let database: PlazaDatabase
    let window: TimeInterval

    /// A limit: at most `limit` events of `bucket` per subject in the window.
    struct Rule: Sendable {
        var bucket: String
        var limit: Int
    }

    /// Throws `rate_limited` (429 with `Retry-After`) once `subject` has reached the rule's limit.
    func check(_ rule: Rule, _ subject: String, now: Date = Date()) async throws {
        let events = try await recent(rule, subject, now: now)
        guard events.count >= rule.limit else { return }
        let retry = max(1, Int(((events.oldest ?? now).addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
        throw PlazaError.rateLimited(retryAfter: retry)
    }

    /// Once `subject` has `rule.limit` events in the window, each further attempt waits twice as long as the one before
    /// (`base`: 1 s, 2 s, 4 s … at most `maximum`) after the newest event: it slows guessing down without locking the owner out
    /// for the whole window. Throws `rate_limited` with `Retry-After` while the wait lasts.
    func backOff(
        _ rule: Rule,
        _ subject: String,
        base: TimeInterval = 1,
        maximum: TimeInterval,
        now: Date = Date()
    ) async throws {
        let events = try await recent(rule, subject, now: now)
        guard events.count >= rule.limit, let newest = events.newest else { return }
        let wait = min(maximum, base * pow(2, Double(min(events.count - rule.limit, 30))))
        let remaining = newest.addingTimeInterval(wait).timeIntervalSince(now)
        if remaining > 0 { throw PlazaError.rateLimited(retryAfter: max(1, Int(remaining.rounded(.up)))) }
    }

    /// How many events of the rule `subject` has in the window, and the oldest and newest of them.
    private func recent(
        _ rule: Rule,
        _ subject: String,
        now: Date
    ) async throws -> (count: Int, oldest: Date?, newest: Date?) {
        let row = try await database.sql.select()
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .column(SQLFunction("MIN", args: SQLColumn("occurred_at")), as: "oldest")
            .column(SQLFunction("MAX", args: SQLColumn("occurred_at")), as: "newest")
            .from("rate_limit_events")
            .where("bucket", .equal, rule.bucket)
            .where("subject", .equal, subject)
            .where("occurred_at", .greaterThan, now.addingTimeInterval(-window))
            .first()
        guard let row, try row.decode(column: "n", as: Int.self) > 0 else { return (0, nil, nil) }
        return (
            try row.decode(column: "n", as: Int.self), try row.decode(column: "oldest", as: Date.self),
            try row.decode(column: "newest", as: Date.self)
        )
    }

    /// Counts one event.
    func record(_ rule: Rule, _ subject: String, now: Date = Date()) async throws {
        try await database.sql.insert(into: "rate_limit_events")
            .columns("id", "bucket", "subject", "occurred_at")
            .values(SQLBind(UUID()), SQLBind(rule.bucket), SQLBind(subject), SQLBind(now))
            .run()
    }

    /// Checks, then counts: for actions limited whether or not they succeed.
    func hit(_ rule: Rule, _ subject: String, now: Date = Date()) async throws {
        try await check(rule, subject, now: now)
        try await record(rule, subject, now: now)
    }

    /// Forgets the subject's events, e.g. an account's failures after a successful log-in.
    func reset(_ rule: Rule, _ subject: String) async throws {
        try await database.sql.delete(from: "rate_limit_events").where("bucket", .equal, rule.bucket).where(
            "subject",
            .equal,
            subject
        ).run()
    }

    /// Deletes events that no window looks at any more.
    func prune(now: Date = Date()) async throws {
        try await database.sql.delete(from: "rate_limit_events").where(
            "occurred_at",
            .lessThan,
            now.addingTimeInterval(-window)
        ).run()
    }
}
