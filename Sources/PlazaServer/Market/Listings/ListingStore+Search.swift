import Foundation
import PlazaCore
import SQLKit
import Synchronization

/// How the feed's word search finds its listings on each engine, and what SQLite remembers of common searches.
extension ListingStore {
    /// How a search finds its listings: the condition that a listing's indexed terms satisfy every clause of
    /// `ListingSearch.clauses` (one of its options starting a term), and the index hint for the listings' table; nil when
    /// nothing matches. Options are letters and digits only (`MarketRules.searchWords`), so neither query syntax can be
    /// escaped from.
    ///
    /// Each engine decides between two plans by the number of matches, which its planner cannot know: up to
    /// `drivenLimit`, the matching listings are read through the words' index and sorted (a rare word: walking the feed
    /// would read the whole campus); more, the feed's index is walked in its order, each entry checked against the
    /// words (on SQLite against the matches' keys, from the index entry itself), until the page is full (a common word:
    /// the first matches come within a few rows).
    func matching(
        _ clauses: [[String]],
        on db: any SQLDatabase
    ) async throws -> (condition: SQLQueryString, hint: SQLQueryString)? {
        if db.prepared != nil {
            let query = clauses.map { "(" + $0.map { "\($0):*" }.joined(separator: " | ") + ")" }.joined(
                separator: " & "
            )
            return try await postgresMatching(query, on: db)
        }
        let query = clauses.map { "(" + $0.map { "\"\($0)\"*" }.joined(separator: " OR ") + ")" }.joined(
            separator: " AND "
        )
        let walk: (SQLQueryString, SQLQueryString) = (
            "l.search_key IN (SELECT rowid FROM listings_words WHERE listings_words MATCH \(bind: query))", ""
        )
        // A search that matched many a moment ago walks at once: the probe would evaluate the query a second time.
        if commonSearches.contains(query) { return walk }
        let keys = try await db.raw(
            "SELECT rowid AS key FROM listings_words WHERE listings_words MATCH \(bind: query) LIMIT \(bind: Self.drivenLimit + 1)"
        ).all().map { try $0.decode(column: "key", as: Int64.self) }
        if keys.isEmpty { return nil }
        if keys.count <= Self.drivenLimit {
            return ("l.search_key IN \(SQLBind.group(keys))", " INDEXED BY listings_search_key")
        }
        commonSearches.insert(query)
        return walk
    }

    /// Up to this many matches are read through the words' index; more walk the feed's index (see `matching`).
    static let drivenLimit = 300

    /// PostgreSQL's two plans, each a statement its planner cannot get wrong without knowing the words (a kept statement
    /// is planned without its values, see `SQLDatabase.kept`): a rare word's matches by id (the probe reads them
    /// through the words' GIN index, planned with the words), and a common word's walk of the feed's order with
    /// `ts_match_vq`, which no index answers. The walk parses the query once per statement (a sub-select), not per row.
    private func postgresMatching(
        _ query: String,
        on db: any SQLDatabase
    ) async throws -> (condition: SQLQueryString, hint: SQLQueryString)? {
        let walk: (SQLQueryString, SQLQueryString) = (
            "ts_match_vq(l.search, (SELECT to_tsquery('simple', \(bind: query))))", ""
        )
        if commonSearches.contains(query) { return walk }
        let ids = try await db.raw(
            """
            SELECT l.id FROM listings l WHERE l.search @@ to_tsquery('simple', \(bind: query)) \
            LIMIT \(literal: Self.drivenLimit + 1)
            """
        ).all().map { try $0.decode(column: "id", as: UUID.self) }
        if ids.isEmpty { return nil }
        if ids.count <= Self.drivenLimit { return ("l.id = ANY(\(bind: ids))", "") }
        commonSearches.insert(query)
        return walk
    }

    final class CommonSearches: Sendable {
        /// How long a verdict holds, and how many are kept before starting afresh.
        static let lifetime: TimeInterval = 60
        static let capacity = 1_000
        private let seen = Mutex<[String: Date]>([:])

        func contains(_ query: String, now: Date = Date()) -> Bool {
            seen.withLock { $0[query].map { now.timeIntervalSince($0) < Self.lifetime } ?? false }
        }

        func insert(_ query: String, now: Date = Date()) {
            seen.withLock { seen in
                if seen.count >= Self.capacity { seen.removeAll(keepingCapacity: true) }
                seen[query] = now
            }
        }
    }
}
