import Foundation
import PlazaCore

// MARK: - Photo cards

extension DemoData {
    /// A thank-you card with the couple's photo above their words: the demo's photo card (issue 40), its slot required
    /// so that the editor asks for a photo before it can be ordered.
    static var snapshotThanks: CardSeed {
        let ink = "#2f3a40"
        let palettes = [("Ivory", "#fbf8f1", "#c9a227"), ("Sage", "#f2f5ef", "#6f8f62")]
        let colours = palettes.map { name, paper, accent in
            // A thin frame around the photo, a line under the thanks.
            let frame =
                "<rect x=\"10\" y=\"10\" width=\"107\" height=\"98\" fill=\"none\" stroke=\"\(accent)\" stroke-width=\"0.6\"/>"
                + "<rect x=\"43.5\" y=\"139\" width=\"40\" height=\"0.6\" fill=\"\(accent)\"/>"
            return CardSeedColour(name: name, art: [.front: svg(cardFiveBySeven, paper, frame)])
        }
        return CardSeed(
            name: "Snapshot Thanks",
            category: "Wedding",
            subcategory: "Thank you",
            trim: cardFiveBySeven,
            pages: [.front],
            colours: colours,
            labels: [
                CardLabelSpec(
                    id: "thanks",
                    page: .front,
                    text: "Thank you",
                    font: "script",
                    size: 36,
                    colour: ink,
                    x: 13.5,
                    y: 116,
                    width: 100,
                    height: 20,
                    maxLines: 1,
                    editable: [.text, .font],
                    fonts: ["script", "serif"]
                ),
                CardLabelSpec(
                    id: "names",
                    page: .front,
                    text: "Amelia & Thomas",
                    font: "serif",
                    size: 12,
                    colour: ink,
                    x: 13.5,
                    y: 145,
                    width: 100,
                    height: 8,
                    maxLines: 1,
                    editable: [.text]
                ),
            ],
            photoSlots: [
                CardPhotoSlot(id: "your-photo", page: .front, x: 12, y: 12, width: 103, height: 94, required: true)
            ],
            papers: ["Smooth matte", "Linen"]
        )
    }
}
