import Foundation
import PlazaCore

// MARK: - Party

extension DemoData {
    static var confettiPop: CardSeed {
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

    static var balloonBunch: CardSeed {
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

    static var candlelight: CardSeed {
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

// MARK: - Party, with text the shopper places

extension DemoData {
    /// Confetti in the corners and an open middle: the shopper may move each text (issue 39: no demo card let them),
    /// by dragging it on the preview or by its "From left" and "From top" fields.
    static var confettiCorners: CardSeed {
        let ink = "#243b55"
        let palettes = [
            ("Sorbet", "#fffaf5", ["#f28482", "#f6bd60", "#84a59d", "#6d9dc5"]),
            ("Mint", "#f5fbf8", ["#2a9d8f", "#e9c46a", "#f4a261", "#264653"]),
        ]
        let colours = palettes.map { name, paper, inks in
            CardSeedColour(
                name: name,
                art: [.front: svg(cardA6, paper, confetti(in: cardA6, avoiding: (14, 22, 91, 126), colours: inks))]
            )
        }
        let inks = [ink, "#f28482", "#2a9d8f"]
        return CardSeed(
            name: "Confetti Corners",
            category: "Party",
            subcategory: "Birthday",
            trim: cardA6,
            pages: [.front],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "title",
                    page: .front,
                    text: "You’re invited",
                    font: "display",
                    size: 20,
                    colour: ink,
                    x: 15,
                    y: 40,
                    width: 75,
                    height: 12,
                    maxLines: 1,
                    editable: [.text, .font, .colour, .position],
                    fonts: ["display", "script", "serif"],
                    colours: inks
                ),
                CardLabelSpec(
                    id: "details",
                    page: .front,
                    text: "Sam turns 30\nFriday, 4 June · 7 pm\nThe Lantern Room",
                    font: "sans",
                    size: 11,
                    colour: ink,
                    x: 15,
                    y: 70,
                    width: 75,
                    height: 24,
                    maxLines: 4,
                    required: true,
                    editable: [.text, .size, .colour, .position],
                    fonts: ["sans"],
                    colours: inks,
                    minSize: 9,
                    maxSize: 14
                ),
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }
}
