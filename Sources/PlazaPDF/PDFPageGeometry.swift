import PlazaCore

/// Converts card millimetres (trim top-left origin, y down) to PDF user space (points, bleed bottom-left origin, y up),
/// and knows the page's boxes.
struct PDFPageGeometry {
    static let pointsPerMillimetre = 72 / 25.4

    let trimWidth: Double
    let trimHeight: Double
    let bleed: Double

    init(_ canvas: PDFCanvas) {
        trimWidth = canvas.trimWidth
        trimHeight = canvas.trimHeight
        bleed = canvas.bleed
    }

    func x(_ millimetres: Double) -> Double {
        (millimetres + bleed) * Self.pointsPerMillimetre
    }

    func y(_ millimetres: Double) -> Double {
        (trimHeight + bleed - millimetres) * Self.pointsPerMillimetre
    }

    func length(_ millimetres: Double) -> Double {
        millimetres * Self.pointsPerMillimetre
    }

    /// MediaBox and BleedBox: the trim plus the bleed all round.
    var mediaBox: [Double] {
        [0, 0, length(trimWidth + 2 * bleed), length(trimHeight + 2 * bleed)]
    }

    /// TrimBox: where the guillotine cuts.
    var trimBox: [Double] {
        [length(bleed), length(bleed), length(trimWidth + bleed), length(trimHeight + bleed)]
    }

    static func array(_ values: [Double]) -> String {
        "[" + values.map { PDFSyntax.number($0) }.joined(separator: " ") + "]"
    }
}
