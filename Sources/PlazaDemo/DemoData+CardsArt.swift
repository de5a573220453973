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
        var photoSlots: [CardPhotoSlot] = []
        /// Paper names, from `cardPapers`.
        var papers: [String]
        var approved = true
    }

    /// A colour variant: its name and the SVG of each page.
    struct CardSeedColour: Sendable {
        var name: String
        var art: [CardPage: String]
    }

    static let cardFiveBySeven = CardTrim(widthMm: 127, heightMm: 177.8)
    static let cardA6 = CardTrim(widthMm: 105, heightMm: 148)
    static let cardA6Landscape = CardTrim(widthMm: 148, heightMm: 105)
    static let cardSquare = CardTrim(widthMm: 140, heightMm: 140)

    static var cardSeeds: [CardSeed] {
        [
            oliveSprig, decoArch, pressedFern, confettiPop, balloonBunch, candlelight, snowfall, winterWreath,
            midnightStars, confettiCorners, snapshotThanks,
        ]
    }
}
