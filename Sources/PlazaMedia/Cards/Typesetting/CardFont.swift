import Foundation
import PlazaCore

/// A font a card can use: its id (`serif`, `sans`, ...: what a card design stores and what names the PDF resource) and
/// the parsed font. Parse once at startup and share; copies share storage.
public struct CardFont: Sendable {
    public let id: String
    public let font: TrueTypeFont

    public init(id: String, font: TrueTypeFont) {
        self.id = id
        self.font = font
    }

    /// Parses the font file; throws `TrueTypeFontError` for anything but a well-formed TrueType font.
    public init(id: String, data: Data) throws {
        self.init(id: id, font: try TrueTypeFont(data: data))
    }
}
