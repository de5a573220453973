/// Why a PDF could not be written.
public enum PDFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The font's OS/2 fsType forbids embedding its outlines (Restricted License, or bitmap-only embedding).
    case embeddingForbidden(fontID: String, fsType: UInt16)
    /// A text layout was drawn with a different font than it was laid out with.
    case fontMismatch(layoutFontID: String, fontID: String)
    /// Two different fonts were drawn under the same id.
    case conflictingFonts(fontID: String)
    /// Bytes that are not a baseline or progressive 8-bit JPEG with a frame header.
    case invalidJPEG(String)
    /// Raw pixels whose count does not match the size.
    case invalidImage(String)
    /// A document needs at least one page.
    case noPages

    public var description: String {
        switch self {
        case .embeddingForbidden(let id, let fsType):
            return
                "font '\(id)' does not allow embedding (OS/2 fsType 0x\(String(fsType, radix: 16))); pick another font"
        case .fontMismatch(let layoutFont, let font):
            return "text laid out with font '\(layoutFont)' was drawn with font '\(font)'"
        case .conflictingFonts(let id): return "two different fonts were drawn as '\(id)'"
        case .invalidJPEG(let reason): return "not a usable JPEG: \(reason)"
        case .invalidImage(let reason): return "not a usable image: \(reason)"
        case .noPages: return "a PDF needs at least one page"
        }
    }
}
