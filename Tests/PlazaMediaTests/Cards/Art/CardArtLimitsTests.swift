import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Size, segment and nesting limits: hostile input is refused quickly, and input just under a limit still parses.
@Suite struct CardArtLimitsTests {
    typealias S = CardArtSamples

    @Test func filesOverTwentyMegabytesAreRefusedUnread() {
        let data = Data(count: CardArt.maximumBytes + 1)
        #expect(throws: CardArtError.tooLarge(bytes: CardArt.maximumBytes + 1)) { try CardArt(svg: data) }
    }

    @Test func segmentsAreCountedOverTheWholeDocument() throws {
        let limit = CardArt.maximumSegments
        // A move plus lines: exactly the limit parses.
        let full = "<path d=\"M0 0" + String(repeating: " L1 1", count: limit - 1) + "\"/>"
        #expect(try S.art(full).shapes[0].path.elements.count == limit)
        let over = "<path d=\"M0 0" + String(repeating: " L1 1", count: limit) + "\"/>"
        #expect(S.error(S.document(over)) == .tooManySegments)
        // Two paths of 60,000 are over together.
        let half = "<path d=\"M0 0" + String(repeating: " L1 1", count: 59_999) + "\"/>"
        #expect(S.error(S.document(half + half)) == .tooManySegments)
        // Basic shapes count too: 20,001 circles are 120,006 elements.
        #expect(S.error(S.document(String(repeating: "<circle r=\"1\"/>", count: 20_001))) == .tooManySegments)
    }

    @Test func arcsCountTheCurvesTheyBecome() {
        // Each full-turn arc pair is 4 cubics; 25,001 of them are over 100,000 elements.
        let arcs = String(repeating: " A1 1 0 1 1 0 2 A1 1 0 1 1 0 0", count: 25_001)
        #expect(S.error(S.document("<path d=\"M0 0\(arcs)\"/>")) == .tooManySegments)
    }

    @Test func nestingIsLimited() throws {
        let groups = CardArt.maximumNesting - 1
        let deepest =
            String(repeating: "<g>", count: groups) + "<path d=\"M0 0H1V1Z\"/>"
            + String(repeating: "</g>", count: groups)
        // svg + 49 groups + the path is 51 deep: one too many.
        #expect(S.error(S.document(deepest)) == .nestedTooDeeply)
        let fits =
            String(repeating: "<g>", count: groups - 1) + "<path d=\"M0 0H1V1Z\"/>"
            + String(repeating: "</g>", count: groups - 1)
        #expect(try S.art(fits).shapes.count == 1)
    }

    @Test func hostileInputIsRefusedQuickly() {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            // Twenty megabytes of numbers in one path: refused at the segment limit, not after reading them all into paths.
            let numbers = String(repeating: " 1 1", count: 4_000_000)
            #expect(S.error(S.document("<path d=\"M0 0\(numbers)\"/>")) == .tooManySegments)
        }
        #expect(elapsed < .seconds(20))
    }

    @Test func aMillionAttributesStayLinear() {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let attributes = (0..<1_000_000).map { " a\($0)=''" }.joined()
            #expect(S.error("<svg\(attributes)/>") == .missingSize)
        }
        #expect(elapsed < .seconds(20))
    }
}
