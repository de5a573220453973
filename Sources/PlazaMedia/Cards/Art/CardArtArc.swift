import Foundation
import PlazaCore

/// Converts an SVG elliptical arc to cubic Béziers, following the SVG implementation notes: endpoint to centre
/// parameterization (F.6.5), out-of-range radii scaled up (F.6.6), then one cubic per quarter turn or less, with control
/// points at `4/3 tan(θ/4)` along the tangents (which puts each piece's midpoint exactly on the ellipse).
enum CardArtArc {
    /// The cubics (control 1, control 2, end) from `start` to `end`; a straight line when a radius is zero, nothing when
    /// the end points coincide. `rotation` is in degrees.
    static func cubics(
        from start: CardArtPoint,
        radiusX: Double,
        radiusY: Double,
        rotation: Double,
        largeArc: Bool,
        sweep: Bool,
        to end: CardArtPoint
    ) -> [CardArtPath.Element] {
        if start == end { return [] }
        var rx = abs(radiusX)
        var ry = abs(radiusY)
        if rx == 0 || ry == 0 { return [.line(end)] }
        let phi = rotation.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi)
        let sinPhi = sin(phi)
        // F.6.5.1: the start point in a frame centred between the end points and aligned with the ellipse's axes.
        let dx = (start.x - end.x) / 2
        let dy = (start.y - end.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        // F.6.6.2: radii too small to reach the end point grow uniformly until they just do.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        // F.6.5.2: the centre in that frame; of the two candidate centres, the flags pick one.
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        let coefficient = (largeArc != sweep ? 1.0 : -1.0) * max(0, numerator / denominator).squareRoot()
        let cx1 = coefficient * rx * y1 / ry
        let cy1 = -coefficient * ry * x1 / rx
        // F.6.5.3: back to user space.
        let cx = cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2
        // F.6.5.5 and F.6.5.6: start angle and sweep, the sweep's sign fixed by the sweep flag.
        let theta1 = atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
        var delta = atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx) - theta1
        if sweep, delta < 0 { delta += 2 * .pi }
        if !sweep, delta > 0 { delta -= 2 * .pi }

        let count = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        func point(_ t: Double) -> CardArtPoint {
            CardArtPoint(
                x: cx + rx * cosPhi * cos(t) - ry * sinPhi * sin(t),
                y: cy + rx * sinPhi * cos(t) + ry * cosPhi * sin(t)
            )
        }
        func tangent(_ t: Double) -> CardArtPoint {
            CardArtPoint(
                x: -rx * cosPhi * sin(t) - ry * sinPhi * cos(t),
                y: -rx * sinPhi * sin(t) + ry * cosPhi * cos(t)
            )
        }
        var elements: [CardArtPath.Element] = []
        var from = start
        for index in 0..<count {
            let t1 = theta1 + Double(index) * step
            let t2 = t1 + step
            // The last piece ends exactly on the requested end point, not on the recomputed one.
            let to = index == count - 1 ? end : point(t2)
            let d1 = tangent(t1)
            let d2 = tangent(t2)
            elements.append(
                .cubic(
                    CardArtPoint(x: from.x + k * d1.x, y: from.y + k * d1.y),
                    CardArtPoint(x: to.x - k * d2.x, y: to.y - k * d2.y),
                    to
                )
            )
            from = to
        }
        return elements
    }
}
