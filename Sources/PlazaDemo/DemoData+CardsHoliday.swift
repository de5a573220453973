import Foundation
import PlazaCore

// MARK: - Holiday

extension DemoData {
    static var snowfall: CardSeed {
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

    static var winterWreath: CardSeed {
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

    static var midnightStars: CardSeed {
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
