import PlazaCore
import PlazaMedia

extension PDFCanvas {
    /// Places an image stretched to `rect`, only what falls inside `clip` showing (a photo in its slot): the image is
    /// embedded whole, at its full pixel size. `orientation` is its EXIF orientation (1–8): the picture is turned and
    /// mirrored as a browser shows it, `rect` being its size as shown (orientations 5–8 swap the stored width and
    /// height).
    public mutating func draw(_ image: PDFImage, in rect: CardRect, clippedTo clip: CardRect, orientation: Int = 1) {
        guard rect.width > 0, rect.height > 0, clip.width > 0, clip.height > 0 else { return }
        operations.append(
            .clippedImage(image, rect, clip: clip, orientation: (1...8).contains(orientation) ? orientation : 1)
        )
    }
}

extension PDFContentStream {
    /// `q`, the clip rectangle (`re W n`), the image's matrix, `Do`, `Q`.
    static func clippedImageOperators(
        _ name: String,
        in rect: CardRect,
        clip: CardRect,
        orientation: Int,
        geometry: PDFPageGeometry
    ) -> String {
        let box = [
            geometry.x(clip.x), geometry.y(clip.maxY), geometry.length(clip.width), geometry.length(clip.height),
        ]
        let matrix = orientedMatrix(
            orientation,
            x: geometry.x(rect.x),
            y: geometry.y(rect.maxY),
            width: geometry.length(rect.width),
            height: geometry.length(rect.height)
        )
        return "q\n" + box.map { PDFSyntax.number($0) }.joined(separator: " ") + " re W n\n"
            + matrix.map { PDFSyntax.number($0) }.joined(separator: " ") + " cm\n/\(name) Do\nQ\n"
    }

    /// The `cm` that maps an image's unit square (its stored rows, the first at the top) onto the box at (x, y) (its
    /// lower-left corner, points) of `width` × `height` as shown: EXIF orientation 2 mirrors it, 3 turns it half way,
    /// 4 flips it, 5 transposes it, 6 turns it a quarter clockwise, 7 transverses it, 8 turns it a quarter anticlockwise.
    static func orientedMatrix(_ orientation: Int, x: Double, y: Double, width w: Double, height h: Double) -> [Double]
    {
        switch orientation {
        case 2: [-w, 0, 0, h, x + w, y]
        case 3: [-w, 0, 0, -h, x + w, y + h]
        case 4: [w, 0, 0, -h, x, y + h]
        case 5: [0, -h, -w, 0, x + w, y + h]
        case 6: [0, -h, w, 0, x, y + h]
        case 7: [0, h, w, 0, x, y]
        case 8: [0, h, -w, 0, x + w, y]
        default: [w, 0, 0, h, x, y]
        }
    }
}
