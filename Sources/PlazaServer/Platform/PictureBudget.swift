import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia

/// How large a picture Plaza agrees to decode, judged from the size its header claims, before anything is decoded or
/// allocated for it: `PLAZA_MEDIA_MAX_PIXELS` (40 megapixels unless the operator says), and 12,000 pixels a side.
public struct PictureBudget: Sendable {
    /// The longest side, whatever the pixel budget.
    public static let maxSide = 12_000
    public var maxPixels = 40_000_000

    public init() {}

    /// 422 `image_too_large` naming `body` and the limits when `width` × `height` is over the budget.
    func check(width: Int, height: Int) throws {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard width > Self.maxSide || height > Self.maxSide || pixels.overflow || pixels.partialValue > maxPixels else {
            return
        }
        // Said where thrown: the decode pool carries the reader's language.
        let size = [
            "width": Self.said(width), "height": Self.said(height),
            "pixels": Self.said(maxPixels), "side": Self.said(Self.maxSide),
        ]
        throw PlazaError(
            .unprocessableContent,
            .imageTooLarge,
            say("The picture is too large: at most {pixels} pixels, {side} a side.", size),
            detail: say("It is {width} × {height}; make it smaller and upload it again.", size),
            errors: [
                FieldError(
                    field: "body",
                    message: say(
                        "The picture is {width} × {height}; Plaza takes at most {pixels} pixels, {side} a side.",
                        size
                    )
                )
            ]
        )
    }

    /// A picture's size checked, then (PNG only) its pixels inflated and checked in full, so a damaged or truncated one
    /// is refused before anything is stored: 422 `image_too_large` or `invalid_image`. Answers the decoded PNG. Runs on
    /// the decode pool.
    func checkedPNG(_ bytes: Data) throws -> PNGImage {
        guard let size = PNGDecoder.size(bytes) else { throw Self.damaged("The PNG image is damaged.") }
        try check(width: size.width, height: size.height)
        do {
            // Within the budget, whatever the channels: four samples a pixel at most.
            return try PNGDecoder.decode(bytes, maxSamples: maxPixels * 4)
        } catch PNGDecoder.Failure.truncated {
            throw Self.damaged("The PNG image is incomplete; try uploading it again.")
        } catch {
            throw Self.damaged("The PNG image is damaged.")
        }
    }

    static func damaged(_ message: String) -> PlazaError {
        PlazaError(.unprocessableContent, .invalidImage, message, errors: [FieldError(field: "body", message: message)])
    }

    /// A number as the reader groups it: "40,000,000" in English as before, "40.000.000" in German.
    static func said(_ number: Int) -> String {
        PageLanguage.words.map { !$0.tag.hasPrefix(Catalogue.english) } == true
            ? number.formatted(.number.locale(sayLocale)) : grouped(number)
    }

    /// 40000000 as "40,000,000": the operator's limit as people read numbers in the contract's examples.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        let groups = stride(from: digits.count, to: 0, by: -3).reversed().map { end in
            String(
                digits[
                    digits.index(
                        digits.startIndex,
                        offsetBy: max(0, end - 3)
                    )..<digits.index(digits.startIndex, offsetBy: end)
                ]
            )
        }
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    mutating func read(_ value: (String) -> String?, fail: (String, String) -> Void) {
        guard let text = value("PLAZA_MEDIA_MAX_PIXELS") else { return }
        guard let pixels = Int(text), (1...Self.maxSide * Self.maxSide).contains(pixels) else {
            return fail(
                "PLAZA_MEDIA_MAX_PIXELS",
                "must be a whole number of pixels from 1 to 144000000, such as 40000000"
            )
        }
        maxPixels = pixels
    }
}
