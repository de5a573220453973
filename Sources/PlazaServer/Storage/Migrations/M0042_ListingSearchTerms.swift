import SQLKit

/// Search finds stems, prefixes and compounds (issue 39): every listing's full-text entry is written again with
/// `ListingSearch`'s terms (its words, their stems, adjacent words joined), on both engines; new and changed listings
/// are indexed so from now on.
struct M0042_ListingSearchTerms: Migration {
    let name = "ListingSearchTerms"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // SQLite's word index is written again by M0058 (keyed anew), with the rules of its day; writing it here would
        // need that migration's columns.
        guard engine == .postgres else { return }
        _ = try await ListingStore().reindexAll(on: db) { MarketService.searchBody($0) }
    }
}
