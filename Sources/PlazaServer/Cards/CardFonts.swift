import Foundation
import PlazaCore
import PlazaMedia

/// The fonts cards are set in, parsed once at start-up from the files the browser preview also loads
/// (`Resources/Public/fonts/<id>.ttf`), so preview, layout and print use the very same outlines and metrics.
package struct CardFonts: Sendable {
    package let fonts: [String: CardFont]
    /// The raw files, served at `GET /v1/cards/fonts/{id}`.
    package let files: [String: Data]

    static func load() throws -> CardFonts {
        var fonts: [String: CardFont] = [:]
        var files: [String: Data] = [:]
        for id in CardRules.fontIDs {
            guard
                let url = Bundle.module.url(
                    forResource: id,
                    withExtension: "ttf",
                    subdirectory: "Resources/Public/fonts"
                )
            else {
                throw ConfigurationError(
                    key: "cards.fonts",
                    message: "The card font \(id).ttf is missing from the server's resources."
                )
            }
            let data = try Data(contentsOf: url)
            fonts[id] = try CardFont(id: id, data: data)
            files[id] = data
        }
        return CardFonts(fonts: fonts, files: files)
    }
}
