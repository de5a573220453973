/// An RGB colour, components 0...1 (DeviceRGB; the print shop converts to CMYK with its own profile).
public struct PDFColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From 0...255 components, as designs store them (`#RRGGBB`).
    public init(red255 red: Int, green: Int, blue: Int) {
        self.init(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255)
    }

    public static let black = PDFColor(red: 0, green: 0, blue: 0)
    public static let white = PDFColor(red: 1, green: 1, blue: 1)

    /// The three operands of `rg` / `RG`, clamped to 0...1 so a stray value cannot make an invalid operator.
    var operands: String {
        [red, green, blue].map { PDFSyntax.number(min(max($0, 0), 1)) }.joined(separator: " ")
    }
}
