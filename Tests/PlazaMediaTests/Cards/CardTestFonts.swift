import Foundation
import PlazaCore
import PlazaMedia

/// The fonts Plaza ships, read from the repository (not copies) so the tests check the files that are served.
enum CardTestFonts {
    static let ids = ["serif", "sans", "script", "display"]

    static let serif = font("serif")
    static let sans = font("sans")
    static let script = font("script")
    static let display = font("display")

    static var all: [CardFont] { [serif, sans, script, display] }

    static func font(_ id: String) -> CardFont {
        try! CardFont(id: id, data: data(id))
    }

    static func data(_ id: String) -> Data {
        try! Data(contentsOf: directory.appendingPathComponent("\(id).ttf"))
    }

    /// `Sources/PlazaServer/Resources/Public/fonts`, found by walking up from this file (symlinks resolved, so it also works
    /// from a package that links these tests in).
    static let directory: URL = {
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Sources/PlazaServer/Resources/Public/fonts")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("serif.ttf").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        fatalError("no Sources/PlazaServer/Resources/Public/fonts above \(#filePath)")
    }()
}
