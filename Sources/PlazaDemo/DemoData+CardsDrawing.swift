import Foundation
import PlazaCore

/// The demo card art's drawing kit: a page of paper, leaves, sprigs, ferns, confetti, balloons, candles, snowflakes,
/// stars and wreaths as SVG, in the page's millimetres.
extension DemoData {
    typealias Point = (x: Double, y: Double)

    /// A page: the paper colour to the bleed's edges, then `body`.
    static func svg(_ trim: CardTrim, _ paper: String, _ body: String) -> String {
        let width = n(trim.widthMm + 6)
        let height = n(trim.heightMm + 6)
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-3 -3 \(width) \(height)\">"
            + "<rect x=\"-3\" y=\"-3\" width=\"\(width)\" height=\"\(height)\" fill=\"\(paper)\"/>" + body + "</svg>"
    }

    /// A number with at most two decimals.
    static func n(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A pointed leaf growing from (x, y) towards `angle` degrees (0: up, clockwise).
    static func leaf(_ x: Double, _ y: Double, angle: Double, length: Double, width: Double, fill: String) -> String {
        let (l, w) = (length, width / 2)
        return
            "<path transform=\"translate(\(n(x)) \(n(y))) rotate(\(n(angle)))\" d=\"M0 0C\(n(w * 1.2)) \(n(-l * 0.3)) \(n(w * 1.1)) "
            + "\(n(-l * 0.75)) 0 \(n(-l))C\(n(-w * 1.1)) \(n(-l * 0.75)) \(n(-w * 1.2)) \(n(-l * 0.3)) 0 0Z\" fill=\"\(fill)\"/>"
    }

    /// The point at `t` on a quadratic curve and the curve's direction there (degrees, 0: up, clockwise).
    static func quadratic(_ from: Point, _ control: Point, _ to: Point, _ t: Double) -> (Point, Double) {
        let u = 1 - t
        let point = (
            x: u * u * from.x + 2 * u * t * control.x + t * t * to.x,
            y: u * u * from.y + 2 * u * t * control.y + t * t * to.y
        )
        let dx = 2 * u * (control.x - from.x) + 2 * t * (to.x - control.x)
        let dy = 2 * u * (control.y - from.y) + 2 * t * (to.y - control.y)
        return (point, atan2(dx, -dy) * 180 / .pi)
    }

    /// A stem along a quadratic curve with leaves in pairs, smaller towards the tip, and a few round fruits.
    static func sprig(
        from: Point,
        control: Point,
        to: Point,
        leaves: Int,
        size: Double,
        fills: [String],
        fruit: String?
    ) -> String {
        var out =
            "<path d=\"M\(n(from.x)) \(n(from.y))Q\(n(control.x)) \(n(control.y)) \(n(to.x)) \(n(to.y))\" fill=\"none\" "
            + "stroke=\"\(fills[0])\" stroke-width=\"0.45\"/>"
        for index in 0..<leaves {
            let t = 0.12 + 0.88 * Double(index) / Double(leaves - 1)
            let (point, direction) = quadratic(from, control, to, t)
            let scale = 1 - 0.45 * t
            let side: Double = index.isMultiple(of: 2) ? 1 : -1
            let angle = index == leaves - 1 ? direction : direction + side * 42
            out += leaf(
                point.x,
                point.y,
                angle: angle,
                length: size * scale,
                width: size * 0.36 * scale,
                fill: fills[index % fills.count]
            )
            if let fruit, index % 4 == 1, index < leaves - 2 {
                let radians = (direction - side * 55) * .pi / 180
                let r = size * 0.16
                out +=
                    "<ellipse cx=\"\(n(point.x + sin(radians) * r * 2.6))\" cy=\"\(n(point.y - cos(radians) * r * 2.6))\" "
                    + "rx=\"\(n(r * 1.25))\" ry=\"\(n(r))\" transform=\"rotate(\(n(direction)) \(n(point.x + sin(radians) * r * 2.6)) "
                    + "\(n(point.y - cos(radians) * r * 2.6)))\" fill=\"\(fruit)\"/>"
            }
        }
        return out
    }

    /// A fern frond: a curved stem with pairs of leaflets, longest near the base.
    static func fern(from: Point, control: Point, to: Point, pairs: Int, size: Double, fill: String) -> String {
        var out =
            "<path d=\"M\(n(from.x)) \(n(from.y))Q\(n(control.x)) \(n(control.y)) \(n(to.x)) \(n(to.y))\" fill=\"none\" "
            + "stroke=\"\(fill)\" stroke-width=\"0.6\"/>"
        for index in 0..<pairs {
            let t = 0.08 + 0.92 * Double(index) / Double(pairs)
            let (point, direction) = quadratic(from, control, to, t)
            // Longest a third of the way up, as on a real frond.
            let length = size * pow(1 - t, 0.8) * (0.55 + 0.45 * min(1, t * 3.5)) + 1
            for side in [-1.0, 1] {
                out += leaf(
                    point.x,
                    point.y,
                    angle: direction + side * 58,
                    length: length,
                    width: length * 0.26,
                    fill: fill
                )
            }
        }
        let (tip, direction) = quadratic(from, control, to, 1)
        return out + leaf(tip.x, tip.y, angle: direction, length: 2.4, width: 1, fill: fill)
    }

    /// Points spread over `area` (x0, y0, x1, y1) outside `avoiding`, the same every time for the same seed.
    static func scatter(
        count: Int,
        seed: UInt64,
        in area: (Double, Double, Double, Double),
        avoiding: (Double, Double, Double, Double)
    ) -> [Point] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var points: [Point] = []
        while points.count < count {
            let point = (x: area.0 + random() * (area.2 - area.0), y: area.1 + random() * (area.3 - area.1))
            let inside = point.x > avoiding.0 && point.x < avoiding.2 && point.y > avoiding.1 && point.y < avoiding.3
            if !inside { points.append(point) }
        }
        return points
    }

    /// Dots, strips and little zigzags around the edges of the card, clear of the text in the middle.
    static func confetti(in trim: CardTrim, avoiding: (Double, Double, Double, Double), colours: [String]) -> String {
        // One piece per 11 mm cell, nudged within it: even, yet not in rows.
        let jitter = scatter(count: 400, seed: 5, in: (0, 0, 1, 1), avoiding: (0, 0, 0, 0))
        var points: [Point] = []
        for row in 0..<Int(trim.heightMm / 11) + 1 {
            for column in 0..<Int(trim.widthMm / 11) + 1 {
                let nudge = jitter[(row * 20 + column) % jitter.count]
                let point = (x: Double(column) * 11 - 1 + nudge.x * 9, y: Double(row) * 11 - 1 + nudge.y * 9)
                let inside =
                    point.x > avoiding.0 && point.x < avoiding.2 && point.y > avoiding.1 && point.y < avoiding.3
                if !inside { points.append(point) }
            }
        }
        var out = ""
        for (index, point) in points.enumerated() {
            let colour = colours[index % colours.count]
            let angle = Double((index * 47) % 180)
            let (x, y) = (n(point.x), n(point.y))
            switch index % 4 {
            case 0:
                out += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(n(1.4 + Double(index % 3) * 0.5))\" fill=\"\(colour)\"/>"
            case 1:
                out +=
                    "<rect x=\"-2.6\" y=\"-0.9\" width=\"5.2\" height=\"1.8\" transform=\"translate(\(x) \(y)) rotate(\(n(angle)))\" fill=\"\(colour)\"/>"
            case 2:
                out +=
                    "<path d=\"M-3 0L-1.5 -1.4L0 0L1.5 -1.4L3 0\" transform=\"translate(\(x) \(y)) rotate(\(n(angle)))\" fill=\"none\" "
                    + "stroke=\"\(colour)\" stroke-width=\"0.7\"/>"
            default:
                out +=
                    "<polygon points=\"0,-1.8 1.6,1 -1.6,1\" transform=\"translate(\(x) \(y)) rotate(\(n(angle)))\" fill=\"\(colour)\"/>"
            }
        }
        return out
    }

    /// A balloon centred at (x, y) with its sheen and knot.
    static func balloon(_ x: Double, _ y: Double, _ fill: String, size: Double = 1) -> String {
        let (rx, ry) = (11 * size, 13.5 * size)
        return "<ellipse cx=\"\(n(x))\" cy=\"\(n(y))\" rx=\"\(n(rx))\" ry=\"\(n(ry))\" fill=\"\(fill)\"/>"
            + "<ellipse cx=\"\(n(x - rx * 0.42))\" cy=\"\(n(y - ry * 0.45))\" rx=\"\(n(rx * 0.18))\" ry=\"\(n(ry * 0.28))\" "
            + "transform=\"rotate(25 \(n(x - rx * 0.42)) \(n(y - ry * 0.45)))\" fill=\"#ffffff\" fill-opacity=\"0.35\"/>"
            + "<polygon points=\"\(n(x)),\(n(y + ry - 0.4)) \(n(x + 1.3 * size)),\(n(y + ry + 1.6 * size)) \(n(x - 1.3 * size)),"
            + "\(n(y + ry + 1.6 * size))\" fill=\"\(fill)\"/>"
    }

    /// A tapered candle in a holder, lit, with a soft glow.
    static func candle(_ x: Double, top: Double, bottom: Double, wax: String, holder: String) -> String {
        var out = "<circle cx=\"\(n(x))\" cy=\"\(n(top - 4))\" r=\"7\" fill=\"#f2b84b\" fill-opacity=\"0.05\"/>"
        out += "<circle cx=\"\(n(x))\" cy=\"\(n(top - 4))\" r=\"4\" fill=\"#f2b84b\" fill-opacity=\"0.08\"/>"
        out +=
            "<polygon points=\"\(n(x - 1.6)),\(n(top)) \(n(x + 1.6)),\(n(top)) \(n(x + 2.2)),\(n(bottom)) \(n(x - 2.2)),\(n(bottom))\" fill=\"\(wax)\"/>"
        out +=
            "<path d=\"M\(n(x - 3.6)) \(n(bottom))H\(n(x + 3.6))L\(n(x + 2.6)) \(n(bottom + 2.4))H\(n(x - 2.6))Z\" fill=\"\(holder)\"/>"
        out +=
            "<path d=\"M\(n(x - 0.6)) \(n(bottom + 2.4))H\(n(x + 0.6))V\(n(bottom + 6))H\(n(x - 0.6))Z\" fill=\"\(holder)\"/>"
        out += "<ellipse cx=\"\(n(x))\" cy=\"\(n(bottom + 6.6))\" rx=\"4.2\" ry=\"1\" fill=\"\(holder)\"/>"
        out +=
            "<line x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(top - 1.2))\" stroke=\"#3a3026\" stroke-width=\"0.3\"/>"
        let flame = { (height: Double, width: Double, colour: String) in
            let base = top - 0.8
            return
                "<path d=\"M\(n(x)) \(n(base))C\(n(x + width)) \(n(base - 0.4)) \(n(x + width * 0.8)) \(n(base - height * 0.55)) \(n(x)) "
                + "\(n(base - height))C\(n(x - width * 0.8)) \(n(base - height * 0.55)) \(n(x - width)) \(n(base - 0.4)) \(n(x)) \(n(base))Z\" "
                + "fill=\"\(colour)\"/>"
        }
        return out + flame(6, 1.7, "#f2b84b") + flame(3.4, 0.9, "#fbe3a1")
    }

    /// A six-armed snowflake of radius `r`, each arm with two pairs of side branches.
    static func snowflake(_ cx: Double, _ cy: Double, _ r: Double, _ colour: String) -> String {
        var d = ""
        for arm in 0..<6 {
            let angle = Double(arm) * .pi / 3
            let point = { (distance: Double) in "\(n(cx + sin(angle) * distance)) \(n(cy - cos(angle) * distance))" }
            d += "M\(n(cx)) \(n(cy))L\(point(r))"
            for (at, length) in [(0.45, 0.28), (0.7, 0.2)] {
                let base = point(r * at)
                for side in [-1.0, 1] {
                    let tip = (
                        x: cx + sin(angle) * r * at + sin(angle + side * .pi / 4) * r * length,
                        y: cy - cos(angle) * r * at - cos(angle + side * .pi / 4) * r * length
                    )
                    d += "M\(base)L\(n(tip.x)) \(n(tip.y))"
                }
            }
        }
        return "<path d=\"\(d)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(n(max(0.3, r * 0.07)))\"/>"
            + "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r * 0.1))\" fill=\"\(colour)\"/>"
    }

    /// A five-pointed star of outer radius `r`.
    static func star(_ cx: Double, _ cy: Double, _ r: Double, _ colour: String) -> String {
        let points = (0..<10).map { index in
            let angle = Double(index) * .pi / 5
            let radius = index.isMultiple(of: 2) ? r : r * 0.42
            return "\(n(cx + sin(angle) * radius)),\(n(cy - cos(angle) * radius))"
        }
        return "<polygon points=\"\(points.joined(separator: " "))\" fill=\"\(colour)\"/>"
    }

    /// A round wreath of paired leaves with clusters of berries and a bow at the bottom.
    static func wreath(centre: Point, radius: Double, leaves: [String], berry: String) -> String {
        var out =
            "<circle cx=\"\(n(centre.x))\" cy=\"\(n(centre.y))\" r=\"\(n(radius))\" fill=\"none\" stroke=\"\(leaves[0])\" stroke-width=\"0.5\"/>"
        let count = 36
        for index in 0..<count {
            let theta = Double(index) / Double(count) * 2 * .pi
            let point = (x: centre.x + sin(theta) * radius, y: centre.y - cos(theta) * radius)
            let direction = theta * 180 / .pi + 90
            let wobble = Double(index % 3) - 1
            out += leaf(
                point.x,
                point.y,
                angle: direction - 32 + wobble * 6,
                length: 8.5,
                width: 3.2,
                fill: leaves[index % 2]
            )
            out += leaf(
                point.x,
                point.y,
                angle: direction + 30 - wobble * 6,
                length: 7.5,
                width: 2.8,
                fill: leaves[(index + 1) % 2]
            )
        }
        for index in 0..<7 {
            let theta = (Double(index) / 7 + 0.04) * 2 * .pi
            let (x, y) = (centre.x + sin(theta) * radius, centre.y - cos(theta) * radius)
            for (dx, dy) in [(0.0, -1.3), (1.2, 0.8), (-1.2, 0.8)] {
                out += "<circle cx=\"\(n(x + dx))\" cy=\"\(n(y + dy))\" r=\"1.25\" fill=\"\(berry)\"/>"
            }
        }
        let bow = (x: centre.x, y: centre.y + radius + 1)
        out +=
            "<path d=\"M\(n(bow.x)) \(n(bow.y))C\(n(bow.x - 8)) \(n(bow.y - 7)) \(n(bow.x - 10)) \(n(bow.y + 4)) \(n(bow.x)) \(n(bow.y))Z\" fill=\"\(berry)\"/>"
        out +=
            "<path d=\"M\(n(bow.x)) \(n(bow.y))C\(n(bow.x + 8)) \(n(bow.y - 7)) \(n(bow.x + 10)) \(n(bow.y + 4)) \(n(bow.x)) \(n(bow.y))Z\" fill=\"\(berry)\"/>"
        out +=
            "<path d=\"M\(n(bow.x - 0.6)) \(n(bow.y))L\(n(bow.x - 5)) \(n(bow.y + 11))L\(n(bow.x - 3)) \(n(bow.y + 10))L\(n(bow.x - 2)) "
            + "\(n(bow.y + 12))L\(n(bow.x + 0.4)) \(n(bow.y))Z\" fill=\"\(berry)\"/>"
        out +=
            "<path d=\"M\(n(bow.x + 0.6)) \(n(bow.y))L\(n(bow.x + 5)) \(n(bow.y + 11))L\(n(bow.x + 3)) \(n(bow.y + 10))L\(n(bow.x + 2)) "
            + "\(n(bow.y + 12))L\(n(bow.x - 0.4)) \(n(bow.y))Z\" fill=\"\(berry)\"/>"
        return out + "<circle cx=\"\(n(bow.x))\" cy=\"\(n(bow.y))\" r=\"1.4\" fill=\"\(berry)\"/>"
    }
}
