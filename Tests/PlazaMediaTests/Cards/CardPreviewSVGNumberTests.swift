import Foundation
import Testing

@testable import PlazaMedia

/// The preview's numbers: the same value always gives the same bytes, at most 4 decimals, no exponent, no "-0".
@Suite struct CardPreviewSVGNumberTests {
    /// What `number` printed before it formatted integers itself: round to ten-thousandths, `%.4f`, trailing zeros off.
    static func reference(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == 0 { return "0" }
        var text = String(format: "%.4f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    @Test func edgesReadAsBefore() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (-0.00004, "0"), (0.00005, "0.0001"), (1.23456, "1.2346"), (-12.5, "-12.5"),
            (100, "100"), (0.1, "0.1"), (-0.0105, "-0.0105"), (148.0000001, "148"), (2_000_000.25, "2000000.25"),
        ]
        for (value, text) in cases {
            #expect(CardPreviewSVG.number(value) == text, "\(value)")
            #expect(Self.reference(value) == text, "\(value)")
        }
    }

    @Test func randomValuesReadAsBefore() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double.random(in: -2_000...2_000, using: &generator)
            #expect(CardPreviewSVG.number(value) == Self.reference(value), "\(value)")
        }
    }
}
