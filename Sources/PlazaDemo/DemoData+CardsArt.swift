import Foundation
import PlazaCore

/// The demo card shop's templates as data: Dana Moreau's art, drawn here as SVG (no copied art), and each template's
/// labels. Every artwork's viewBox is its page plus the 3 mm bleed, with the trim's top-left corner at (0, 0), so the
/// art's coordinates are the labels' millimetres. The art is written by small functions (a leaf, a snowflake, a star)
/// rather than kept as one huge literal per colour: the shapes are the same in every colour, and huge literals slow
/// the build.
extension DemoData {
    /// One template as Dana submits it; all but `approved == false` go into the catalogue.
    struct CardSeed: Sendable {
        var name: String
        var category: String
        var subcategory: String
        var trim: CardTrim
        var pages: [CardPage]
        var colours: [CardSeedColour]
        var labels: [CardLabelSpec]
        /// Paper names, from `cardPapers`.
        var papers: [String]
        var approved = true
    }

    /// A colour variant: its name and the SVG of each page.
    struct CardSeedColour: Sendable {
        var name: String
        var art: [CardPage: String]
    }

    private static let cardFiveBySeven = CardTrim(widthMm: 127, heightMm: 177.8)
    private static let cardA6 = CardTrim(widthMm: 105, heightMm: 148)
    private static let cardA6Landscape = CardTrim(widthMm: 148, heightMm: 105)
    private static let cardSquare = CardTrim(widthMm: 140, heightMm: 140)

    static var cardSeeds: [CardSeed] {
        [
            oliveSprig, decoArch, pressedFern, confettiPop, balloonBunch, candlelight, snowfall, winterWreath,
            midnightStars,
        ]
    }
}

// MARK: - Wedding

extension DemoData {
    private static let oliveInk = "#3d3a34"

    private static var oliveSprig: CardSeed {
        let palettes = [
            ("Ivory", "#f8f4ea", "#7f8f5a", "#a4b07f", "#4d5a33", "#c2b593"),
            ("Blush", "#f6e8e3", "#6f8262", "#98a788", "#b7796b", "#d3b2a6"),
            ("Dove grey", "#eeeeea", "#5c6b5a", "#8c9a88", "#3c4a3f", "#b4b7ae"),
        ]
        let colours = palettes.map { name, paper, leaf, light, olive, rule in
            let sprigs =
                sprig(
                    from: (63.5, 46),
                    control: (42, 46),
                    to: (25, 22),
                    leaves: 15,
                    size: 10,
                    fills: [leaf, light],
                    fruit: olive
                )
                + sprig(
                    from: (63.5, 46),
                    control: (85, 46),
                    to: (102, 22),
                    leaves: 15,
                    size: 10,
                    fills: [leaf, light],
                    fruit: olive
                )
            let frame =
                "<rect x=\"8\" y=\"8\" width=\"111\" height=\"161.8\" fill=\"none\" stroke=\"\(rule)\" stroke-width=\"0.35\"/>"
            let foot = sprig(
                from: (52, 152),
                control: (63.5, 146),
                to: (75, 152),
                leaves: 7,
                size: 5,
                fills: [leaf, light],
                fruit: nil
            )
            let inside = sprig(
                from: (51, 30),
                control: (63.5, 22),
                to: (76, 30),
                leaves: 7,
                size: 6,
                fills: [leaf, light],
                fruit: olive
            )
            return CardSeedColour(
                name: name,
                art: [
                    .front: svg(cardFiveBySeven, paper, sprigs + frame + foot),
                    .inside: svg(cardFiveBySeven, paper, inside + frame),
                ]
            )
        }
        let inks = [oliveInk, "#5c6b4a", "#8c5a4a"]
        return CardSeed(
            name: "Olive Sprig",
            category: "Wedding",
            subcategory: "Invitations",
            trim: cardFiveBySeven,
            pages: [.front, .inside],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "names",
                    page: .front,
                    text: "Amelia\n& Thomas",
                    font: "script",
                    size: 38,
                    colour: oliveInk,
                    x: 16,
                    y: 57,
                    width: 95,
                    height: 40,
                    maxLines: 2,
                    required: true,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["script", "serif"],
                    colours: inks,
                    minSize: 24,
                    maxSize: 40
                ),
                CardLabelSpec(
                    id: "date",
                    page: .front,
                    text: "Saturday, the twelfth of June\ntwo thousand twenty-seven\nat four in the afternoon",
                    font: "serif",
                    size: 11,
                    colour: oliveInk,
                    x: 16,
                    y: 101,
                    width: 95,
                    height: 18,
                    maxLines: 4,
                    editable: [.text, .size, .colour],
                    colours: inks,
                    minSize: 9,
                    maxSize: 12
                ),
                CardLabelSpec(
                    id: "place",
                    page: .front,
                    text: "Hollyhock Barn\nAshford, Kent",
                    font: "serif",
                    size: 11,
                    colour: oliveInk,
                    x: 16,
                    y: 124,
                    width: 95,
                    height: 12,
                    maxLines: 3,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "message",
                    page: .inside,
                    text: "Dinner and dancing to follow\n\nKindly reply by the first of May",
                    font: "serif",
                    size: 13,
                    colour: oliveInk,
                    x: 16,
                    y: 70,
                    width: 95,
                    height: 40,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["serif", "script", "sans"],
                    colours: inks,
                    minSize: 10,
                    maxSize: 16
                ),
            ],
            papers: ["Smooth matte", "Linen", "Recycled kraft"]
        )
    }

    private static var decoArch: CardSeed {
        let ink = "#2e3440"
        let palettes = [
            ("Champagne", "#f5efe2", "#b08d57"), ("Sage", "#e3e8dc", "#6f8460"), ("Dusty blue", "#e1e7ec", "#5d7690"),
        ]
        let colours = palettes.map { name, paper, line in
            var art =
                "<path d=\"M14 134V52.5A38.5 38.5 0 0 1 91 52.5V134\" fill=\"none\" stroke=\"\(line)\" stroke-width=\"0.6\"/>"
            art +=
                "<path d=\"M16.5 134V52.5A36 36 0 0 1 88.5 52.5V134\" fill=\"none\" stroke=\"\(line)\" stroke-width=\"0.25\"/>"
            art += "<path d=\"M10 134H95M10 136H95\" fill=\"none\" stroke=\"\(line)\" stroke-width=\"0.3\"/>"
            art += "<path d=\"M47 34A5.5 5.5 0 0 1 58 34Z\" fill=\"\(line)\"/>"
            for ray in 0..<9 {
                let angle = (-80 + Double(ray) * 20) * .pi / 180
                let (inner, outer) = (7.5, ray.isMultiple(of: 2) ? 12.5 : 10.5)
                art +=
                    "<line x1=\"\(n(52.5 + sin(angle) * inner))\" y1=\"\(n(34 - cos(angle) * inner))\" x2=\"\(n(52.5 + sin(angle) * outer))\" "
                    + "y2=\"\(n(34 - cos(angle) * outer))\" stroke=\"\(line)\" stroke-width=\"0.35\"/>"
            }
            art += "<polygon points=\"52.5,10.6 54.2,12.6 52.5,14.6 50.8,12.6\" fill=\"\(line)\"/>"
            return CardSeedColour(name: name, art: [.front: svg(cardA6, paper, art)])
        }
        let inks = [ink, "#7a5c3a", "#4a5d44"]
        return CardSeed(
            name: "Deco Arch",
            category: "Wedding",
            subcategory: "Save the dates",
            trim: cardA6,
            pages: [.front],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "heading",
                    page: .front,
                    text: "SAVE THE DATE",
                    font: "serif",
                    size: 10,
                    colour: ink,
                    x: 18,
                    y: 39,
                    width: 69,
                    height: 6,
                    maxLines: 1,
                    editable: [.colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "names",
                    page: .front,
                    text: "Clara\n& Jonah",
                    font: "script",
                    size: 34,
                    colour: ink,
                    x: 18,
                    y: 50,
                    width: 69,
                    height: 36,
                    maxLines: 2,
                    required: true,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["script", "serif", "display"],
                    colours: inks,
                    minSize: 22,
                    maxSize: 36
                ),
                CardLabelSpec(
                    id: "date",
                    page: .front,
                    text: "18 · 09 · 2027",
                    font: "serif",
                    size: 17,
                    colour: ink,
                    x: 18,
                    y: 94,
                    width: 69,
                    height: 10,
                    maxLines: 1,
                    required: true,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "place",
                    page: .front,
                    text: "Larchmont Gardens, Vermont\nInvitation to follow",
                    font: "serif",
                    size: 9.5,
                    colour: ink,
                    x: 18,
                    y: 110,
                    width: 69,
                    height: 14,
                    maxLines: 3,
                    editable: [.text, .colour],
                    colours: inks
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }

    private static var pressedFern: CardSeed {
        let ink = "#33312c"
        let palettes = [
            ("Fern", "#f4f1e8", "#5e7a4f", "#9bb08a"), ("Terracotta", "#f6ece4", "#b8694a", "#d9a387"),
            ("Slate", "#eef0f0", "#4f6470", "#93a5ae"),
        ]
        let colours = palettes.map { name, paper, frond, light in
            let front =
                fern(from: (14, 110), control: (12, 64), to: (34, 26), pairs: 16, size: 11, fill: light)
                + fern(from: (28, 110), control: (28, 58), to: (52, 16), pairs: 19, size: 13.5, fill: frond)
            let inside = fern(from: (136, 104), control: (134, 84), to: (116, 66), pairs: 10, size: 9, fill: frond)
            return CardSeedColour(
                name: name,
                art: [.front: svg(cardA6Landscape, paper, front), .inside: svg(cardA6Landscape, paper, inside)]
            )
        }
        let inks = [ink, "#5e7a4f", "#b8694a"]
        return CardSeed(
            name: "Pressed Fern",
            category: "Wedding",
            subcategory: "Thank you",
            trim: cardA6Landscape,
            pages: [.front, .inside],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "thanks",
                    page: .front,
                    text: "Thank you",
                    font: "script",
                    size: 46,
                    colour: ink,
                    x: 64,
                    y: 33,
                    width: 76,
                    height: 24,
                    maxLines: 1,
                    editable: [.text, .font, .colour],
                    fonts: ["script", "serif"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "names",
                    page: .front,
                    text: "Amelia & Thomas",
                    font: "serif",
                    size: 11,
                    colour: ink,
                    x: 64,
                    y: 63,
                    width: 76,
                    height: 7,
                    maxLines: 1,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "message",
                    page: .inside,
                    text: "Thank you for sharing our day\nand for your thoughtful gift.\n\nWith love, Amelia & Thomas",
                    font: "serif",
                    size: 13,
                    colour: ink,
                    x: 16,
                    y: 24,
                    width: 100,
                    height: 50,
                    required: true,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["serif", "script", "sans"],
                    colours: inks,
                    minSize: 10,
                    maxSize: 16
                ),
            ],
            papers: ["Smooth matte", "Linen", "Recycled kraft"]
        )
    }
}

// MARK: - Party

extension DemoData {
    private static var confettiPop: CardSeed {
        let ink = "#2b2d42"
        let palettes = [
            ("Bright", "#fffaf3", ["#ef6f6c", "#f7b32b", "#2ec4b6", "#5b8def", "#9b5de5"]),
            ("Pastel", "#fdf7f9", ["#f4a7b9", "#f9c98a", "#8fd3c1", "#a9c5f0", "#c9b1ee"]),
        ]
        let colours = palettes.map { name, paper, inks in
            CardSeedColour(
                name: name,
                art: [
                    .front: svg(
                        cardSquare,
                        paper,
                        confetti(in: cardSquare, avoiding: (12, 34, 128, 110), colours: inks)
                    )
                ]
            )
        }
        let inks = [ink, "#ef6f6c", "#5b8def"]
        return CardSeed(
            name: "Confetti Pop",
            category: "Party",
            subcategory: "Birthday",
            trim: cardSquare,
            pages: [.front],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "title",
                    page: .front,
                    text: "Let’s party!",
                    font: "display",
                    size: 30,
                    colour: ink,
                    x: 16,
                    y: 42,
                    width: 108,
                    height: 16,
                    maxLines: 1,
                    editable: [.text, .font, .colour],
                    fonts: ["display", "script", "sans"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "name",
                    page: .front,
                    text: "Maya is turning 7",
                    font: "display",
                    size: 16,
                    colour: ink,
                    x: 16,
                    y: 64,
                    width: 108,
                    height: 10,
                    maxLines: 1,
                    required: true,
                    editable: [.text, .font, .colour],
                    fonts: ["display", "sans"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "details",
                    page: .front,
                    text: "Saturday, 8 May · 2 to 5 pm\n14 Orchard Lane",
                    font: "sans",
                    size: 11,
                    colour: ink,
                    x: 16,
                    y: 84,
                    width: 108,
                    height: 16,
                    maxLines: 3,
                    editable: [.text, .size],
                    minSize: 9,
                    maxSize: 12
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }

    private static var balloonBunch: CardSeed {
        let ink = "#2d2a32"
        let palettes = [
            ("Sunny", "#fff7e8", ["#f2a541", "#e4572e", "#4fb0c6", "#8cb369"]),
            ("Berry", "#fcf0f3", ["#b83b5e", "#f08a5d", "#6a2c70", "#f9c74f"]),
        ]
        let colours = palettes.map { name, paper, fills in
            let bunch: [(Double, Double, Int)] = [(45, 56, 0), (69, 40, 1), (90, 60, 2), (66, 70, 3)]
            var front = ""
            for (x, y, colour) in bunch {
                front +=
                    "<path d=\"M\(n(x)) \(n(y + 15))C\(n(x + 4)) \(n(y + 40)) \(n(64 + (x - 64) * 0.2)) 100 64 118\" fill=\"none\" "
                    + "stroke=\"#9a8f84\" stroke-width=\"0.3\"/>"
            }
            for (x, y, colour) in bunch { front += balloon(x, y, fills[colour]) }
            let inside =
                balloon(100, 28, fills[0], size: 0.6)
                + "<path d=\"M100 37C102 46 97 52 100 62\" fill=\"none\" stroke=\"#9a8f84\" stroke-width=\"0.3\"/>"
            return CardSeedColour(
                name: name,
                art: [.front: svg(cardFiveBySeven, paper, front), .inside: svg(cardFiveBySeven, paper, inside)]
            )
        }
        let inks = [ink, "#e4572e", "#4fb0c6"]
        return CardSeed(
            name: "Balloon Bunch",
            category: "Party",
            subcategory: "Birthday",
            trim: cardFiveBySeven,
            pages: [.front, .inside],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "headline",
                    page: .front,
                    text: "Happy birthday",
                    font: "display",
                    size: 18,
                    colour: ink,
                    x: 14,
                    y: 126,
                    width: 99,
                    height: 10,
                    maxLines: 1,
                    editable: [.text, .font, .colour],
                    fonts: ["display", "serif", "script"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "name",
                    page: .front,
                    text: "Oliver",
                    font: "display",
                    size: 40,
                    colour: ink,
                    x: 14,
                    y: 138,
                    width: 99,
                    height: 20,
                    maxLines: 1,
                    required: true,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["display", "script", "serif"],
                    colours: inks,
                    minSize: 28,
                    maxSize: 44
                ),
                CardLabelSpec(
                    id: "message",
                    page: .inside,
                    text: "Wishing you a year as bright\nas these balloons.\n\nLove, Grandma & Grandpa",
                    font: "serif",
                    size: 14,
                    colour: ink,
                    x: 16,
                    y: 72,
                    width: 95,
                    height: 48,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["serif", "sans", "script", "display"],
                    colours: inks,
                    minSize: 10,
                    maxSize: 18
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }

    private static var candlelight: CardSeed {
        let ink = "#f3ead8"
        let palettes = [("Midnight", "#1f2a3a"), ("Aubergine", "#352131"), ("Forest", "#1f3329")]
        let gold = "#c9a45c"
        let colours = palettes.map { name, paper in
            var art =
                "<rect x=\"7\" y=\"7\" width=\"91\" height=\"134\" fill=\"none\" stroke=\"\(gold)\" stroke-width=\"0.4\"/>"
            art +=
                "<rect x=\"9\" y=\"9\" width=\"87\" height=\"130\" fill=\"none\" stroke=\"\(gold)\" stroke-width=\"0.2\"/>"
            for (x, y) in [(7.0, 7.0), (98, 7), (7, 141), (98, 141)] {
                art +=
                    "<polygon points=\"\(n(x)),\(n(y - 1.6)) \(n(x + 1.6)),\(n(y)) \(n(x)),\(n(y + 1.6)) \(n(x - 1.6)),\(n(y))\" fill=\"\(gold)\"/>"
            }
            art += candle(46.5, top: 25, bottom: 50, wax: "#efe6d2", holder: gold)
            art += candle(58.5, top: 21, bottom: 50, wax: "#efe6d2", holder: gold)
            return CardSeedColour(name: name, art: [.front: svg(cardA6, paper, art)])
        }
        let inks = [ink, "#d8b66a"]
        return CardSeed(
            name: "Candlelight",
            category: "Party",
            subcategory: "Dinner party",
            trim: cardA6,
            pages: [.front],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "title",
                    page: .front,
                    text: "Dinner at ours",
                    font: "script",
                    size: 30,
                    colour: ink,
                    x: 14,
                    y: 60,
                    width: 77,
                    height: 16,
                    maxLines: 1,
                    editable: [.text, .font, .colour],
                    fonts: ["script", "serif"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "date",
                    page: .front,
                    text: "Friday, the fourteenth of March\nat seven o’clock",
                    font: "serif",
                    size: 11,
                    colour: ink,
                    x: 14,
                    y: 82,
                    width: 77,
                    height: 12,
                    maxLines: 2,
                    required: true,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "place",
                    page: .front,
                    text: "22 Linden Row, upper flat",
                    font: "serif",
                    size: 11,
                    colour: ink,
                    x: 14,
                    y: 99,
                    width: 77,
                    height: 7,
                    maxLines: 2,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "reply",
                    page: .front,
                    text: "Kindly reply to Sam · 555 0142",
                    font: "sans",
                    size: 8,
                    colour: ink,
                    x: 14,
                    y: 122,
                    width: 77,
                    height: 6,
                    maxLines: 1,
                    editable: [.text, .colour],
                    colours: inks
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }
}

// MARK: - Holiday

extension DemoData {
    private static var snowfall: CardSeed {
        let ink = "#f7f4ee"
        let palettes = [("Midnight", "#1d2b45"), ("Pine", "#1e3a2f"), ("Winter berry", "#4b1d2a")]
        let flakes: [(Double, Double, Double)] = [
            (26, 30, 10), (92, 20, 6), (68, 52, 7.5), (106, 64, 9), (20, 74, 5), (48, 14, 4), (40, 56, 3.5),
            (84, 84, 4), (112, 36, 3.5),
        ]
        let colours = palettes.map { name, paper in
            var front = flakes.map { snowflake($0.0, $0.1, $0.2, "#ffffff") }.joined()
            for (index, point) in scatter(count: 70, seed: 7, in: (2, 2, 125, 175), avoiding: (10, 94, 117, 158))
                .enumerated()
            {
                let r = [0.5, 0.8, 1.1][index % 3]
                front +=
                    "<circle cx=\"\(n(point.x))\" cy=\"\(n(point.y))\" r=\"\(n(r))\" fill=\"#ffffff\" fill-opacity=\"0.7\"/>"
            }
            front +=
                "<path d=\"M-3 170C30 163 60 168 90 164C105 162 118 164 130 166V181H-3Z\" fill=\"#ffffff\" fill-opacity=\"0.14\"/>"
            let inside = [(40.0, 34.0, 5.0), (63.5, 26, 7), (87, 34, 5)].map { snowflake($0.0, $0.1, $0.2, "#ffffff") }
                .joined()
            return CardSeedColour(
                name: name,
                art: [.front: svg(cardFiveBySeven, paper, front), .inside: svg(cardFiveBySeven, paper, inside)]
            )
        }
        let inks = [ink, "#e9d8a6"]
        return CardSeed(
            name: "Snowfall",
            category: "Holiday",
            subcategory: "Season's greetings",
            trim: cardFiveBySeven,
            pages: [.front, .inside],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "greeting",
                    page: .front,
                    text: "Season’s\nGreetings",
                    font: "script",
                    size: 40,
                    colour: ink,
                    x: 14,
                    y: 98,
                    width: 99,
                    height: 40,
                    maxLines: 2,
                    editable: [.text, .font, .colour],
                    fonts: ["script", "serif"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "from",
                    page: .front,
                    text: "With love from the Novak family",
                    font: "serif",
                    size: 11,
                    colour: ink,
                    x: 14,
                    y: 143,
                    width: 99,
                    height: 12,
                    maxLines: 2,
                    required: true,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "message",
                    page: .inside,
                    text: "Wishing you peace, warmth\nand joy this winter,\nand all through the new year.",
                    font: "serif",
                    size: 14,
                    colour: ink,
                    x: 16,
                    y: 70,
                    width: 95,
                    height: 40,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["serif", "script", "sans"],
                    colours: inks,
                    minSize: 10,
                    maxSize: 18
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }

    private static var winterWreath: CardSeed {
        let ink = "#2c3a33"
        let palettes = [
            ("Classic", "#fbf8f2", "#2f5d46", "#5b8a63", "#b3262f"),
            ("Nordic", "#f1f3f4", "#56707a", "#8aa3aa", "#c9a66b"),
        ]
        let colours = palettes.map { name, paper, dark, light, berry in
            CardSeedColour(
                name: name,
                art: [
                    .front: svg(
                        cardSquare,
                        paper,
                        wreath(centre: (70, 62), radius: 34, leaves: [dark, light], berry: berry)
                    )
                ]
            )
        }
        let inks = [ink, "#b3262f", "#56707a"]
        return CardSeed(
            name: "Winter Wreath",
            category: "Holiday",
            subcategory: "Season's greetings",
            trim: cardSquare,
            pages: [.front],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "greeting",
                    page: .front,
                    text: "Peace\n& joy",
                    font: "script",
                    size: 34,
                    colour: ink,
                    x: 42,
                    y: 43,
                    width: 56,
                    height: 34,
                    maxLines: 2,
                    editable: [.text, .font, .colour],
                    fonts: ["script", "serif"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "from",
                    page: .front,
                    text: "Love from the Okafor family",
                    font: "serif",
                    size: 12,
                    colour: ink,
                    x: 16,
                    y: 112,
                    width: 108,
                    height: 8,
                    maxLines: 1,
                    required: true,
                    editable: [.text, .colour],
                    colours: inks
                ),
            ],
            papers: ["Smooth matte", "Linen", "Recycled kraft"],
            approved: false
        )
    }

    private static var midnightStars: CardSeed {
        let ink = "#f4ecd8"
        let palettes = [
            ("Navy and gold", "#14213d", "#d6b25e"), ("Black and silver", "#161616", "#c9ccd1"),
            ("Plum and gold", "#2e1a33", "#d6b25e"),
        ]
        let stars: [(Double, Double, Double)] = [
            (24, 22, 3.2), (78, 18, 2), (56, 36, 2.6), (20, 52, 1.6), (88, 48, 3.6), (38, 66, 1.4), (70, 62, 1.8),
        ]
        let colours = palettes.map { name, paper, metal in
            let frame =
                "<rect x=\"6\" y=\"6\" width=\"93\" height=\"136\" fill=\"none\" stroke=\"\(metal)\" stroke-width=\"0.45\"/>"
                + "<rect x=\"7.6\" y=\"7.6\" width=\"89.8\" height=\"132.8\" fill=\"none\" stroke=\"\(metal)\" stroke-width=\"0.2\"/>"
            var front = frame + stars.map { star($0.0, $0.1, $0.2, metal) }.joined()
            for point in scatter(count: 26, seed: 3, in: (10, 10, 95, 72), avoiding: (0, 0, 0, 0)) {
                front += "<circle cx=\"\(n(point.x))\" cy=\"\(n(point.y))\" r=\"0.45\" fill=\"\(metal)\"/>"
            }
            front +=
                "<circle cx=\"38\" cy=\"30\" r=\"6\" fill=\"\(metal)\"/><circle cx=\"40.6\" cy=\"28.4\" r=\"5.4\" fill=\"\(paper)\"/>"
            let inside =
                frame + [(40.0, 30.0, 2.0), (52.5, 24, 3), (65, 30, 2)].map { star($0.0, $0.1, $0.2, metal) }.joined()
            return CardSeedColour(
                name: name,
                art: [.front: svg(cardA6, paper, front), .inside: svg(cardA6, paper, inside)]
            )
        }
        let inks = [ink, "#d6b25e"]
        return CardSeed(
            name: "Midnight Stars",
            category: "Holiday",
            subcategory: "New year",
            trim: cardA6,
            pages: [.front, .inside],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "heading",
                    page: .front,
                    text: "Happy New Year",
                    font: "serif",
                    size: 15,
                    colour: ink,
                    x: 12,
                    y: 88,
                    width: 81,
                    height: 8,
                    maxLines: 1,
                    editable: [.text, .font, .colour],
                    fonts: ["serif", "script", "display"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "year",
                    page: .front,
                    text: "2027",
                    font: "display",
                    size: 54,
                    colour: ink,
                    x: 12,
                    y: 98,
                    width: 81,
                    height: 24,
                    maxLines: 1,
                    required: true,
                    editable: [.text, .colour],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "message",
                    page: .inside,
                    text: "Here’s to a year of good health,\nnew adventures and old friends.\n\nLove, Priya & Sam",
                    font: "serif",
                    size: 12,
                    colour: ink,
                    x: 14,
                    y: 52,
                    width: 77,
                    height: 40,
                    editable: [.text, .font, .size, .colour],
                    fonts: ["serif", "script", "sans"],
                    colours: inks,
                    minSize: 9,
                    maxSize: 15
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }
}
