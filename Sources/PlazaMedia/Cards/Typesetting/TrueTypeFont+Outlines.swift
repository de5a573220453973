import PlazaCore

/// A glyph's outline in font units (y up), as closed contours of quadratic Bézier segments.
public struct TrueTypeOutline: Sendable, Hashable {
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double
        /// On the curve, or the control point of a quadratic segment.
        public var onCurve: Bool
    }

    public var contours: [[Point]]

    /// SVG path data in font units (y up, so draw it flipped): `M`, `L`, `Q` and `Z` only. Runs of off-curve points get
    /// the implied on-curve midpoints TrueType defines; a contour with no on-curve point starts at the midpoint of its
    /// last and first points.
    public func svgPathData(number: (Double) -> String) -> String {
        var d = ""
        for contour in contours where contour.count > 1 {
            let count = contour.count
            let startIndex = contour.firstIndex(where: \.onCurve)
            let start: (x: Double, y: Double)
            if let startIndex {
                start = (contour[startIndex].x, contour[startIndex].y)
            } else {
                start = ((contour[count - 1].x + contour[0].x) / 2, (contour[count - 1].y + contour[0].y) / 2)
            }
            d += "M\(number(start.x)) \(number(start.y))"
            var control: Point?
            // Every point once, starting after the start point, ending back on it.
            let first = (startIndex ?? -1) + 1
            for step in 0..<count {
                let point = contour[(first + step) % count]
                if point.onCurve {
                    if let c = control {
                        d += "Q\(number(c.x)) \(number(c.y)) \(number(point.x)) \(number(point.y))"
                    } else {
                        d += "L\(number(point.x)) \(number(point.y))"
                    }
                    control = nil
                } else {
                    if let c = control {
                        let middle = ((c.x + point.x) / 2, (c.y + point.y) / 2)
                        d += "Q\(number(c.x)) \(number(c.y)) \(number(middle.0)) \(number(middle.1))"
                    }
                    control = point
                }
            }
            if let c = control {
                d += "Q\(number(c.x)) \(number(c.y)) \(number(start.x)) \(number(start.y))"
            }
            d += "Z"
        }
        return d
    }
}

/// Reading `glyf` outlines: simple glyphs and composites (offsets and the three scale forms), so a glyph that has no
/// character of its own (a ligature, a contextual form) can still be drawn.
extension TrueTypeFont {
    /// Composites nest at most this deep (the spec's `maxComponentDepth` rarely passes 3).
    static let maxComponentDepth = 8
    /// An outline with more points than this is refused (the largest glyphs of CJK fonts stay far below it).
    static let maxOutlinePoints = 65_536

    /// The outline of a glyph (empty for a space, an id past the glyph count, or a glyph with no contours). Throws
    /// `TrueTypeFontError` for a record that does not parse, a composite that nests too deep, or too many points.
    public func outline(of glyph: UInt16) throws -> TrueTypeOutline {
        var contours: [[TrueTypeOutline.Point]] = []
        var points = 0
        try appendOutline(of: glyph, transform: .identity, depth: 0, into: &contours, points: &points)
        return TrueTypeOutline(contours: contours)
    }

    /// `x' = a·x + c·y + dx`, `y' = b·x + d·y + dy`.
    struct ComponentTransform {
        var a = 1.0, b = 0.0, c = 0.0, d = 1.0, dx = 0.0, dy = 0.0
        static let identity = ComponentTransform()

        func apply(_ x: Double, _ y: Double) -> (Double, Double) {
            (a * x + c * y + dx, b * x + d * y + dy)
        }

        /// This transform applied after `inner`.
        func concatenating(_ inner: ComponentTransform) -> ComponentTransform {
            let origin = apply(inner.dx, inner.dy)
            return ComponentTransform(
                a: a * inner.a + c * inner.b,
                b: b * inner.a + d * inner.b,
                c: a * inner.c + c * inner.d,
                d: b * inner.c + d * inner.d,
                dx: origin.0,
                dy: origin.1
            )
        }
    }

    private func appendOutline(
        of glyph: UInt16,
        transform: ComponentTransform,
        depth: Int,
        into contours: inout [[TrueTypeOutline.Point]],
        points: inout Int
    ) throws {
        let record = glyphData(glyph)
        guard !record.isEmpty else { return }
        let r = try TrueTypeReader(bytes: bytes, table: "glyf", start: record.startIndex, length: record.count)
        let contourCount = Int(try r.i16(0))
        if contourCount >= 0 {
            for contour in try simpleContours(r, count: contourCount, points: &points) {
                contours.append(
                    contour.map { point in
                        let (x, y) = transform.apply(point.x, point.y)
                        return TrueTypeOutline.Point(x: x, y: y, onCurve: point.onCurve)
                    }
                )
            }
            return
        }
        guard depth < Self.maxComponentDepth else {
            throw TrueTypeFontError.malformed(table: "glyf", reason: "glyph \(glyph) nests components too deep")
        }
        var offset = 10
        while true {
            let flags = try r.u16(offset)
            let component = try r.u16(offset + 2)
            offset += 4
            var inner = ComponentTransform()
            let dx: Double
            let dy: Double
            if flags & 0x0001 != 0 {  // ARG_1_AND_2_ARE_WORDS
                dx = Double(try r.i16(offset))
                dy = Double(try r.i16(offset + 2))
                offset += 4
            } else {
                dx = Double(Int8(bitPattern: try r.u8(offset)))
                dy = Double(Int8(bitPattern: try r.u8(offset + 1)))
                offset += 2
            }
            if flags & 0x0008 != 0 {  // WE_HAVE_A_SCALE
                inner.a = try f2dot14(r, offset)
                inner.d = inner.a
                offset += 2
            } else if flags & 0x0040 != 0 {  // WE_HAVE_AN_X_AND_Y_SCALE
                inner.a = try f2dot14(r, offset)
                inner.d = try f2dot14(r, offset + 2)
                offset += 4
            } else if flags & 0x0080 != 0 {  // WE_HAVE_A_TWO_BY_TWO
                inner.a = try f2dot14(r, offset)
                inner.b = try f2dot14(r, offset + 2)
                inner.c = try f2dot14(r, offset + 4)
                inner.d = try f2dot14(r, offset + 6)
                offset += 8
            }
            // ARGS_ARE_XY_VALUES: an offset (unscaled, the default of fonts made for Windows and of fontTools). Without
            // it the arguments name points to match, used by almost no font: the component is then placed unmoved.
            if flags & 0x0002 != 0 {
                inner.dx = dx
                inner.dy = dy
            }
            guard Int(component) < numberOfGlyphs else {
                throw TrueTypeFontError.malformed(
                    table: "glyf",
                    reason: "glyph \(glyph) uses missing glyph \(component)"
                )
            }
            try appendOutline(
                of: component,
                transform: transform.concatenating(inner),
                depth: depth + 1,
                into: &contours,
                points: &points
            )
            guard flags & 0x0020 != 0 else { break }  // MORE_COMPONENTS
        }
    }

    private func f2dot14(_ r: TrueTypeReader, _ offset: Int) throws -> Double {
        Double(try r.i16(offset)) / 16_384
    }

    /// The contours of a simple glyph: end points, instructions skipped, run-length flags, then delta-coded x and y.
    private func simpleContours(
        _ r: TrueTypeReader,
        count: Int,
        points total: inout Int
    ) throws -> [[TrueTypeOutline.Point]] {
        guard count > 0 else { return [] }
        var ends: [Int] = []
        ends.reserveCapacity(count)
        for index in 0..<count {
            let end = Int(try r.u16(10 + index * 2))
            guard end >= (ends.last.map { $0 + 1 } ?? 0) else {
                throw TrueTypeFontError.malformed(table: "glyf", reason: "contour end points out of order")
            }
            ends.append(end)
        }
        let pointCount = (ends.last ?? -1) + 1
        total += pointCount
        guard total <= Self.maxOutlinePoints else {
            throw TrueTypeFontError.malformed(table: "glyf", reason: "too many outline points")
        }
        let instructionLength = Int(try r.u16(10 + count * 2))
        var offset = 12 + count * 2 + instructionLength
        var flags: [UInt8] = []
        flags.reserveCapacity(pointCount)
        while flags.count < pointCount {
            let flag = try r.u8(offset)
            offset += 1
            var repeats = 1
            if flag & 0x08 != 0 {
                repeats += Int(try r.u8(offset))
                offset += 1
            }
            flags.append(contentsOf: repeatElement(flag, count: min(repeats, pointCount - flags.count)))
        }
        func coordinates(short: UInt8, same: UInt8) throws -> [Double] {
            var value = 0
            var values: [Double] = []
            values.reserveCapacity(pointCount)
            for flag in flags {
                if flag & short != 0 {
                    let delta = Int(try r.u8(offset))
                    offset += 1
                    value += flag & same != 0 ? delta : -delta
                } else if flag & same == 0 {
                    value += Int(try r.i16(offset))
                    offset += 2
                }
                values.append(Double(value))
            }
            return values
        }
        let xs = try coordinates(short: 0x02, same: 0x10)
        let ys = try coordinates(short: 0x04, same: 0x20)
        var contours: [[TrueTypeOutline.Point]] = []
        var start = 0
        for end in ends {
            contours.append(
                (start...end).map { TrueTypeOutline.Point(x: xs[$0], y: ys[$0], onCurve: flags[$0] & 0x01 != 0) }
            )
            start = end + 1
        }
        return contours
    }
}
