import Foundation
import PlazaCore
import PlazaMedia
import Testing

@testable import PlazaPDF

/// The shipped fonts (read from the repository through `#filePath`), a JPEG fixture and helpers to run the PDF tools.
enum PDFFixtures {
    static func font(_ id: String) -> CardFont {
        try! CardFont(id: id, data: fontData(id))
    }

    static func fontData(_ id: String) -> Data {
        try! Data(contentsOf: fontDirectory.appendingPathComponent("\(id).ttf"))
    }

    static let fontDirectory: URL = {
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Sources/PlazaServer/Resources/Public/fonts")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("sans.ttf").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        fatalError("no Sources/PlazaServer/Resources/Public/fonts above \(#filePath)")
    }()

    /// A 16×8 baseline JPEG, red left half and blue right half, written by Pillow 13
    /// (`Image.new("RGB", (16, 8))`, quality 90).
    static let jpeg = Data(
        base64Encoded: [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYU",
            "GBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAIABAD",
            "ASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKB",
            "kaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZ",
            "mqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQF",
            "BgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5",
            "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX",
            "2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD50rwKiiv3D6Mv/M4/7gf+5j+jfpDf8yr/ALjf+4j/2Q==",
        ].joined()
    )!

    /// Writes `data` to a fresh temporary file and returns its path.
    static func temporaryFile(_ data: Data, suffix: String = ".pdf") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "plaza-pdf-\(UUID().uuidString)\(suffix)"
        )
        try data.write(to: url)
        return url
    }
}
