import PlazaCore
import Testing

@testable import PlazaMedia

/// Every path command against hand-computed absolute coordinates, SVG's number grammar and implicit commands.
@Suite struct CardArtPathDataTests {
    typealias S = CardArtSamples

    @Test func absoluteLinesAndClose() throws {
        #expect(
            try S.path("M10 20 L30 40 H50 V60 Z") == [
                .move(S.p(10, 20)), .line(S.p(30, 40)), .line(S.p(50, 40)), .line(S.p(50, 60)), .close,
            ]
        )
    }

    @Test func relativeCommandsAreRelativeToTheCurrentPoint() throws {
        let elements = try S.path("m10 20 l5 5 h5 v-5 z m1 1 l1 0")
        #expect(
            elements == [
                .move(S.p(10, 20)), .line(S.p(15, 25)), .line(S.p(20, 25)), .line(S.p(20, 20)), .close,
                .move(S.p(11, 21)), .line(S.p(12, 21)),
            ]
        )
    }

    @Test func extraPairsAfterAMoveAreLines() throws {
        #expect(try S.path("M0 0 10 10 20 0") == [.move(S.p(0, 0)), .line(S.p(10, 10)), .line(S.p(20, 0))])
        #expect(try S.path("m1 1 2 2") == [.move(S.p(1, 1)), .line(S.p(3, 3))])
        #expect(try S.path("M0 0 L1 1 2 2") == [.move(S.p(0, 0)), .line(S.p(1, 1)), .line(S.p(2, 2))])
    }

    @Test func numbersFollowSVGGrammar() throws {
        let elements = try S.path("M1.5.5L-1-2L1e1,2E-1L.5.5l+1,  -1")
        #expect(
            elements == [
                .move(S.p(1.5, 0.5)), .line(S.p(-1, -2)), .line(S.p(10, 0.2)), .line(S.p(0.5, 0.5)),
                .line(S.p(1.5, -0.5)),
            ]
        )
    }

    @Test func drawingAfterCloseStartsAtTheSubpathStart() throws {
        #expect(
            try S.path("M0 0 L10 0 Z L0 10") == [
                .move(S.p(0, 0)), .line(S.p(10, 0)), .close, .move(S.p(0, 0)), .line(S.p(0, 10)),
            ]
        )
        #expect(
            try S.path("M5 5 L10 0 z l1 1") == [
                .move(S.p(5, 5)), .line(S.p(10, 0)), .close, .move(S.p(5, 5)), .line(S.p(6, 6)),
            ]
        )
    }

    @Test func cubicCurves() throws {
        let elements = try S.path("M1 1 C2 2 3 3 4 4 c1 0 2 0 3 0")
        #expect(
            elements == [
                .move(S.p(1, 1)), .cubic(S.p(2, 2), S.p(3, 3), S.p(4, 4)), .cubic(S.p(5, 4), S.p(6, 4), S.p(7, 4)),
            ]
        )
    }

    @Test func smoothCubicsReflectThePreviousControlPoint() throws {
        let elements = try S.path("M0 0 C10 0 20 10 30 10 S50 20 60 20 s10 10 20 0")
        #expect(
            elements == [
                .move(S.p(0, 0)), .cubic(S.p(10, 0), S.p(20, 10), S.p(30, 10)),
                .cubic(S.p(40, 10), S.p(50, 20), S.p(60, 20)),
                .cubic(S.p(70, 20), S.p(70, 30), S.p(80, 20)),
            ]
        )
        // Without a previous cubic the first control point is the current point.
        #expect(try S.path("M5 5 S10 10 20 5") == [.move(S.p(5, 5)), .cubic(S.p(5, 5), S.p(10, 10), S.p(20, 5))])
        #expect(try S.path("M0 0 Q5 5 10 0 S20 5 30 0")[2] == .cubic(S.p(10, 0), S.p(20, 5), S.p(30, 0)))
    }

    @Test func quadraticsBecomeExactCubics() throws {
        #expect(try S.path("M0 0 Q30 60 60 0") == [.move(S.p(0, 0)), .cubic(S.p(20, 40), S.p(40, 40), S.p(60, 0))])
        #expect(
            try S.path("M10 10 q30 60 60 0") == [.move(S.p(10, 10)), .cubic(S.p(30, 50), S.p(50, 50), S.p(70, 10))]
        )
    }

    @Test func smoothQuadraticsReflectThePreviousControlPoint() throws {
        // The control (30, 60) reflected about (60, 0) is (90, -60).
        let elements = try S.path("M0 0 Q30 60 60 0 T120 0 t60 0")
        #expect(elements[2] == .cubic(S.p(80, -40), S.p(100, -40), S.p(120, 0)))
        // The next reflection of (90, -60) about (120, 0) is (150, 60).
        #expect(elements[3] == .cubic(S.p(140, 40), S.p(160, 40), S.p(180, 0)))
        // Without a previous quadratic the control is the current point: a straight cubic.
        #expect(try S.path("M0 0 T30 0")[1] == .cubic(S.p(0, 0), S.p(10, 0), S.p(30, 0)))
    }

    @Test func arcsWithUnseparatedFlags() throws {
        let relative = try S.path("M0 0 a5 5 0 1010 0")
        let absolute = try S.path("M0 0 A5,5,0,1,0,10,0")
        #expect(relative == absolute)
        #expect(S.ends(relative).last == S.p(10, 0))
        // A half circle below the chord (sweep 0 from the left goes through positive y in SVG's y-down frame).
        let middle = try #require(S.evaluate(S.p(0, 0), relative[1], at: 1))
        #expect(abs(middle.x - 5) < 1e-9 && abs(abs(middle.y) - 5) < 1e-9)
    }

    @Test func degenerateArcs() throws {
        #expect(try S.path("M0 0 A0 5 0 0 1 10 0") == [.move(S.p(0, 0)), .line(S.p(10, 0))])
        #expect(try S.path("M3 3 A5 5 0 0 1 3 3") == [.move(S.p(3, 3))])
    }

    @Test func invalidPathDataIsRefused() {
        for data in ["L0 0", "M0 0 L1", "M0 0 X1 1", "M0 0 A1 1 0 2 0 1 1", "M0 0 Z 5 5", "M 1e999 0", "M0,,0"] {
            #expect(throws: CardArtError.self, "\(data)") { try S.path(data) }
        }
    }

    @Test func theBudgetLimitsElements() {
        #expect(throws: CardArtError.tooManySegments) { try CardArtPathData.parse("M0 0 1 1 2 2 3 3", budget: 3) }
        #expect(throws: Never.self) { try CardArtPathData.parse("M0 0 1 1 2 2", budget: 3) }
    }
}
