import PlazaCore

/// A font's vertical metrics at one size, in points (hhea for the line box, OS/2 for cap and x heights when present).
public struct ScaledFontMetrics: Sendable, Hashable {
    /// Points per font unit at this size.
    public var scale: Double
    public var size: Double
    public var ascender: Double
    /// Negative: below the baseline.
    public var descender: Double
    public var lineGap: Double
    public var capHeight: Double?
    public var xHeight: Double?

    public init(font: TrueTypeFont, size: Double) {
        let scale = size / Double(font.unitsPerEm)
        self.scale = scale
        self.size = size
        ascender = Double(font.horizontalHeader.ascender) * scale
        descender = Double(font.horizontalHeader.descender) * scale
        lineGap = Double(font.horizontalHeader.lineGap) * scale
        capHeight = font.os2?.capHeight.map { Double($0) * scale }
        xHeight = font.os2?.xHeight.map { Double($0) * scale }
    }

    /// Converts a length in font units to points at this size.
    public func points(_ fontUnits: Int) -> Double {
        Double(fontUnits) * scale
    }
}
