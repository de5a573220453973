import Foundation
import PlazaCore

/// An affine map `(x, y) -> (a x + c y + e, b x + d y + f)`, as SVG's `matrix(a b c d e f)`.
struct CardArtTransform: Hashable {
    var a = 1.0
    var b = 0.0
    var c = 0.0
    var d = 1.0
    var e = 0.0
    var f = 0.0

    static let identity = CardArtTransform()

    /// `lhs * rhs` applies `rhs` first, then `lhs`: an element's transform list `A B` is `A * B`, and its full map is
    /// `parent * own`.
    static func * (lhs: CardArtTransform, rhs: CardArtTransform) -> CardArtTransform {
        CardArtTransform(
            a: lhs.a * rhs.a + lhs.c * rhs.b,
            b: lhs.b * rhs.a + lhs.d * rhs.b,
            c: lhs.a * rhs.c + lhs.c * rhs.d,
            d: lhs.b * rhs.c + lhs.d * rhs.d,
            e: lhs.a * rhs.e + lhs.c * rhs.f + lhs.e,
            f: lhs.b * rhs.e + lhs.d * rhs.f + lhs.f
        )
    }

    func apply(_ point: CardArtPoint) -> CardArtPoint {
        CardArtPoint(x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f)
    }

    /// How much lengths grow on average: the square root of the area scale. Exact for uniform scales and rotations; for
    /// non-uniform scales it is the geometric mean, which is how a single stroke width approximates SVG's stretched pen.
    var meanScale: Double { abs(a * d - b * c).squareRoot() }

    static func translate(_ x: Double, _ y: Double) -> CardArtTransform { CardArtTransform(e: x, f: y) }
    static func scale(_ x: Double, _ y: Double) -> CardArtTransform { CardArtTransform(a: x, d: y) }

    /// Rotation by `degrees`, clockwise on screen since SVG's y axis points down.
    static func rotate(_ degrees: Double) -> CardArtTransform {
        let radians = degrees * .pi / 180
        return CardArtTransform(a: cos(radians), b: sin(radians), c: -sin(radians), d: cos(radians))
    }

    /// Parses a `transform` attribute: a list of `matrix`, `translate`, `scale`, `rotate`, `skewX`, `skewY`, separated
    /// by whitespace and/or commas, composed left to right.
    static func parse(_ text: String) throws(CardArtError) -> CardArtTransform {
        var scanner = CardArtScanner(text)
        var result = CardArtTransform.identity
        scanner.skipSeparator()
        while !scanner.isAtEnd {
            var name = ""
            while let byte = scanner.peek, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) {
                name.append(Character(Unicode.Scalar(byte)))
                scanner.advance()
            }
            scanner.skipWhitespace()
            guard scanner.peek == UInt8(ascii: "(") else { throw .invalidValue(attribute: "transform", value: text) }
            scanner.advance()
            scanner.skipWhitespace()
            var arguments: [Double] = []
            while let value = try scanner.number() {
                arguments.append(value)
                scanner.skipSeparator()
            }
            guard scanner.peek == UInt8(ascii: ")"), let step = step(name, arguments) else {
                throw .invalidValue(attribute: "transform", value: text)
            }
            scanner.advance()
            scanner.skipSeparator()
            result = result * step
        }
        return result
    }

    private static func step(_ name: String, _ v: [Double]) -> CardArtTransform? {
        switch (name, v.count) {
        case ("matrix", 6): return CardArtTransform(a: v[0], b: v[1], c: v[2], d: v[3], e: v[4], f: v[5])
        case ("translate", 1): return translate(v[0], 0)
        case ("translate", 2): return translate(v[0], v[1])
        case ("scale", 1): return scale(v[0], v[0])
        case ("scale", 2): return scale(v[0], v[1])
        case ("rotate", 1): return rotate(v[0])
        // Rotation about (cx, cy): move the centre to the origin, rotate, move back.
        case ("rotate", 3): return translate(v[1], v[2]) * rotate(v[0]) * translate(-v[1], -v[2])
        case ("skewX", 1): return CardArtTransform(c: tan(v[0] * .pi / 180))
        case ("skewY", 1): return CardArtTransform(b: tan(v[0] * .pi / 180))
        default: return nil
        }
    }
}
