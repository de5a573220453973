import PlazaCore

/// The outlines of SVG's basic shapes as paths in the element's own coordinates, drawn the way SVG 2 specifies: rects
/// clockwise from the top-left (after the corner radius), circles and ellipses clockwise from the rightmost point.
/// Shapes SVG would not render (zero or negative sizes) give `nil`.
enum CardArtBasicShapes {
    /// The distance of a cubic's control points from the ends for a quarter of a circle of radius 1 (4/3 (√2 − 1)).
    private static let kappa = 0.552_284_749_830_793_4

    static func rect(_ element: CardArtXMLElement) throws(CardArtError) -> [CardArtPath.Element]? {
        let x = try CardArtLength.attribute(element, "x")
        let y = try CardArtLength.attribute(element, "y")
        let width = try CardArtLength.attribute(element, "width")
        let height = try CardArtLength.attribute(element, "height")
        guard width > 0, height > 0 else { return nil }
        // A missing radius takes the other one's value; both are clamped to half the side.
        let givenX = element["rx"] == nil ? nil : try CardArtLength.attribute(element, "rx")
        let givenY = element["ry"] == nil ? nil : try CardArtLength.attribute(element, "ry")
        let rx = min(max(givenX ?? givenY ?? 0, 0), width / 2)
        let ry = min(max(givenY ?? givenX ?? 0, 0), height / 2)
        if rx == 0 || ry == 0 {
            return [
                .move(point(x, y)), .line(point(x + width, y)), .line(point(x + width, y + height)),
                .line(point(x, y + height)), .close,
            ]
        }
        let (kx, ky) = (rx * kappa, ry * kappa)
        let (right, bottom) = (x + width, y + height)
        return [
            .move(point(x + rx, y)), .line(point(right - rx, y)),
            .cubic(point(right - rx + kx, y), point(right, y + ry - ky), point(right, y + ry)),
            .line(point(right, bottom - ry)),
            .cubic(point(right, bottom - ry + ky), point(right - rx + kx, bottom), point(right - rx, bottom)),
            .line(point(x + rx, bottom)),
            .cubic(point(x + rx - kx, bottom), point(x, bottom - ry + ky), point(x, bottom - ry)),
            .line(point(x, y + ry)),
            .cubic(point(x, y + ry - ky), point(x + rx - kx, y), point(x + rx, y)), .close,
        ]
    }

    static func circle(_ element: CardArtXMLElement) throws(CardArtError) -> [CardArtPath.Element]? {
        let r = try CardArtLength.attribute(element, "r")
        return try ellipse(element, rx: r, ry: r)
    }

    static func ellipse(_ element: CardArtXMLElement) throws(CardArtError) -> [CardArtPath.Element]? {
        try ellipse(element, rx: CardArtLength.attribute(element, "rx"), ry: CardArtLength.attribute(element, "ry"))
    }

    static func line(_ element: CardArtXMLElement) throws(CardArtError) -> [CardArtPath.Element] {
        [
            .move(point(try CardArtLength.attribute(element, "x1"), try CardArtLength.attribute(element, "y1"))),
            .line(point(try CardArtLength.attribute(element, "x2"), try CardArtLength.attribute(element, "y2"))),
        ]
    }

    /// A polyline, or with `closed` a polygon. An odd number of coordinates is refused (browsers drop the last one).
    static func poly(_ element: CardArtXMLElement, closed: Bool) throws(CardArtError) -> [CardArtPath.Element]? {
        let text = element["points"] ?? ""
        guard let values = try CardArtScanner.numbers(in: text), values.count.isMultiple(of: 2) else {
            throw .invalidValue(attribute: "points", value: text)
        }
        guard values.count >= 4 else { return nil }
        var elements: [CardArtPath.Element] = [.move(point(values[0], values[1]))]
        for index in stride(from: 2, to: values.count, by: 2) {
            elements.append(.line(point(values[index], values[index + 1])))
        }
        if closed { elements.append(.close) }
        return elements
    }

    private static func ellipse(
        _ element: CardArtXMLElement,
        rx: Double,
        ry: Double
    ) throws(CardArtError) -> [CardArtPath.Element]? {
        let cx = try CardArtLength.attribute(element, "cx")
        let cy = try CardArtLength.attribute(element, "cy")
        guard rx > 0, ry > 0 else { return nil }
        let (kx, ky) = (rx * kappa, ry * kappa)
        return [
            .move(point(cx + rx, cy)),
            .cubic(point(cx + rx, cy + ky), point(cx + kx, cy + ry), point(cx, cy + ry)),
            .cubic(point(cx - kx, cy + ry), point(cx - rx, cy + ky), point(cx - rx, cy)),
            .cubic(point(cx - rx, cy - ky), point(cx - kx, cy - ry), point(cx, cy - ry)),
            .cubic(point(cx + kx, cy - ry), point(cx + rx, cy - ky), point(cx + rx, cy)),
            .close,
        ]
    }

    private static func point(_ x: Double, _ y: Double) -> CardArtPoint { CardArtPoint(x: x, y: y) }
}
