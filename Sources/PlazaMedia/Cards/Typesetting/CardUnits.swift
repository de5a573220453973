import PlazaCore

/// Card geometry is in millimetres (what a printer specifies), type sizes in points; these convert between the two.
public enum CardUnits {
    /// 1 pt = 1/72 inch = 25.4/72 mm.
    public static let millimetresPerPoint = 25.4 / 72

    public static func millimetres(fromPoints points: Double) -> Double {
        points * millimetresPerPoint
    }

    public static func points(fromMillimetres millimetres: Double) -> Double {
        millimetres / millimetresPerPoint
    }
}
