import PlazaCore

/// Parses SVG path data (`d`) into absolute moves, lines, cubics and closes in the element's own coordinates. Every
/// command is supported, with SVG's implicit repetition (extra pairs after `M` are line-tos); quadratics become exact
/// cubics and arcs become cubics (`CardArtArc`). Invalid data is refused rather than drawn up to the error as browsers
/// do, so what the designer sees here is what prints.
struct CardArtPathData {
    private var scanner: CardArtScanner
    private var elements: [CardArtPath.Element] = []
    private var current = CardArtPoint(x: 0, y: 0)
    private var subpathStart = CardArtPoint(x: 0, y: 0)
    /// The second control point of the previous cubic, for `S`; of the previous quadratic, for `T`.
    private var lastCubicControl: CardArtPoint?
    private var lastQuadraticControl: CardArtPoint?
    private var closed = false
    private let budget: Int

    /// Throws `tooManySegments` when the path would have more than `budget` elements.
    static func parse(_ text: String, budget: Int) throws(CardArtError) -> [CardArtPath.Element] {
        var parser = CardArtPathData(scanner: CardArtScanner(text), budget: budget)
        try parser.run()
        return parser.elements
    }

    private init(scanner: CardArtScanner, budget: Int) {
        self.scanner = scanner
        self.budget = budget
    }

    private mutating func run() throws(CardArtError) {
        scanner.skipWhitespace()
        var command: UInt8?
        while !scanner.isAtEnd {
            if let byte = scanner.peek, Self.commands.contains(byte) {
                command = byte
                scanner.advance()
                scanner.skipWhitespace()
            } else if command == nil || command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                throw .invalidPathData("expected a command at '\(String(scanner.remainder.prefix(12)))'")
            }
            guard let letter = command else { break }
            guard elements.isEmpty == false || letter | 0x20 == UInt8(ascii: "m") else {
                throw .invalidPathData("a path must start with a move (M)")
            }
            try execute(letter)
            // After a move, further coordinate pairs are implicit line-tos, relative if the move was.
            if letter == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
            if letter == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            guard elements.count <= budget else { throw .tooManySegments }
        }
    }

    private mutating func execute(_ letter: UInt8) throws(CardArtError) {
        let relative = letter >= UInt8(ascii: "a")
        let origin = relative ? current : CardArtPoint(x: 0, y: 0)
        func point(_ what: String) throws(CardArtError) -> CardArtPoint {
            let x = try scanner.requireNumber(what)
            let y = try scanner.requireNumber(what)
            return CardArtPoint(x: origin.x + x, y: origin.y + y)
        }
        var cubicControl: CardArtPoint?
        var quadraticControl: CardArtPoint?
        switch letter | 0x20 {
        case UInt8(ascii: "m"):
            // A move right after a close was made explicit by `close`; replace it rather than leave two moves.
            let target = try point("a move")
            if case .move = elements.last { elements.removeLast() }
            elements.append(.move(target))
            current = target
            subpathStart = target
            closed = false
        case UInt8(ascii: "z"):
            elements.append(.close)
            current = subpathStart
            closed = true
        case UInt8(ascii: "l"): try lineTo(point("a line"))
        case UInt8(ascii: "h"):
            try lineTo(CardArtPoint(x: origin.x + scanner.requireNumber("a horizontal line"), y: current.y))
        case UInt8(ascii: "v"):
            try lineTo(CardArtPoint(x: current.x, y: origin.y + scanner.requireNumber("a vertical line")))
        case UInt8(ascii: "c"):
            let c1 = try point("a curve")
            let c2 = try point("a curve")
            try curveTo(c1, c2, point("a curve"))
            cubicControl = c2
        case UInt8(ascii: "s"):
            // The first control point mirrors the previous cubic's second one about the current point.
            let c1 = lastCubicControl.map { CardArtPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            let c2 = try point("a smooth curve")
            try curveTo(c1, c2, point("a smooth curve"))
            cubicControl = c2
        case UInt8(ascii: "q"):
            let control = try point("a quadratic curve")
            try quadraticTo(control, point("a quadratic curve"))
            quadraticControl = control
        case UInt8(ascii: "t"):
            let control =
                lastQuadraticControl.map { CardArtPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            try quadraticTo(control, point("a smooth quadratic curve"))
            quadraticControl = control
        default:
            try arc(origin)
        }
        lastCubicControl = cubicControl
        lastQuadraticControl = quadraticControl
    }

    private mutating func arc(_ origin: CardArtPoint) throws(CardArtError) {
        let rx = try scanner.requireNumber("an arc radius")
        let ry = try scanner.requireNumber("an arc radius")
        let rotation = try scanner.requireNumber("an arc rotation")
        guard let largeArc = scanner.flag(), let sweep = scanner.flag() else {
            throw .invalidPathData("an arc flag must be 0 or 1")
        }
        let x = try scanner.requireNumber("an arc end")
        let end = CardArtPoint(x: origin.x + x, y: origin.y + (try scanner.requireNumber("an arc end")))
        reopenIfClosed()
        elements += CardArtArc.cubics(
            from: current,
            radiusX: rx,
            radiusY: ry,
            rotation: rotation,
            largeArc: largeArc,
            sweep: sweep,
            to: end
        )
        current = end
    }

    private mutating func lineTo(_ point: CardArtPoint) {
        reopenIfClosed()
        elements.append(.line(point))
        current = point
    }

    private mutating func curveTo(_ c1: CardArtPoint, _ c2: CardArtPoint, _ point: CardArtPoint) {
        reopenIfClosed()
        elements.append(.cubic(c1, c2, point))
        current = point
    }

    /// A quadratic is exactly the cubic whose control points lie 2/3 of the way from each end to its control point.
    private mutating func quadraticTo(_ control: CardArtPoint, _ point: CardArtPoint) {
        let c1 = CardArtPoint(
            x: current.x + 2 / 3 * (control.x - current.x),
            y: current.y + 2 / 3 * (control.y - current.y)
        )
        let c2 = CardArtPoint(x: point.x + 2 / 3 * (control.x - point.x), y: point.y + 2 / 3 * (control.y - point.y))
        curveTo(c1, c2, point)
    }

    /// SVG starts a drawing command after `Z` at the closed subpath's start; the model says so with an explicit move.
    private mutating func reopenIfClosed() {
        guard closed else { return }
        elements.append(.move(subpathStart))
        closed = false
    }

    private static let commands = Set("MmLlHhVvCcSsQqTtAaZz".utf8)
}
