import Foundation
import PlazaCore

// MARK: - Wedding

extension DemoData {
    private static let oliveInk = "#3d3a34"

    static var oliveSprig: CardSeed {
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

    static var decoArch: CardSeed {
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

    static var pressedFern: CardSeed {
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
