import PlazaCore
import PlazaMedia

extension PDFCanvas {
    /// Places an image stretched to `rect`, only what falls inside `clip` showing (a photo in its slot): the image is
    /// embedded whole, at its full pixel size.
    public mutating func draw(_ image: PDFImage, in rect: CardRect, clippedTo clip: CardRect) {
        guard rect.width > 0, rect.height > 0, clip.width > 0, clip.height > 0 else { return }
        operations.append(.clippedImage(image, rect, clip: clip))
    }
}

extension PDFContentStream {
    /// `q`, the clip rectangle (`re W n`), the image's matrix, `Do`, `Q`.
    static func clippedImageOperators(
        _ name: String,
        in rect: CardRect,
        clip: CardRect,
        geometry: PDFPageGeometry
    ) -> String {
        let box = [
            geometry.x(clip.x), geometry.y(clip.maxY), geometry.length(clip.width), geometry.length(clip.height),
        ]
        let matrix = [
            geometry.length(rect.width), 0, 0, geometry.length(rect.height), geometry.x(rect.x), geometry.y(rect.maxY),
        ]
        return "q\n" + box.map { PDFSyntax.number($0) }.joined(separator: " ") + " re W n\n"
            + matrix.map { PDFSyntax.number($0) }.joined(separator: " ") + " cm\n/\(name) Do\nQ\n"
    }
}
