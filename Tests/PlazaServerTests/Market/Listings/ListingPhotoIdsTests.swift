import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

/// A listing's photo ids read from their column as the JSON decoder reads them, whatever the spelling.
@Suite struct ListingPhotoIdsTests {
    @Test func readAsTheDecoderReadsThem() throws {
        for count in 0..<6 {
            let ids = (0..<count).map { _ in UUID() }
            let written = String(decoding: try PlazaJSON.encoder().encode(ids), as: UTF8.self)
            #expect(try ListingStore.photoIds(written) == ids)
            #expect(try ListingStore.photoIds(written.lowercased()) == ids)
        }
        let id = UUID()
        #expect(try ListingStore.photoIds("[ \"\(id.uuidString)\" ]") == [id])
        #expect(try ListingStore.photoIds("[\"\(id.uuidString)\", \"\(id.uuidString)\"]") == [id, id])
        for bad in ["", "[", "[\"\"]", "[\"\(id.uuidString)x\"]", "[\"\(id.uuidString)\",\"nope\"]"] {
            #expect(throws: (any Error).self) { try ListingStore.photoIds(bad) }
        }
    }
}
