import SQLKit

/// Photo cards (issue 40): a design's photos in its template's slots, as JSON (`[CardPhotoPlacement]`, with each
/// upload's pixel size); designs saved before have none (NULL). Slots live in the template versions' spec JSON.
struct M0052_CardPhotos: Migration {
    let name = "CardPhotos"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "card_designs").column("photos", type: .text).run()
    }
}
