import Foundation
import PlazaCore

/// Small JPEG pictures for feeds, made from a (sanitized) JPEG without an image library.
///
/// A feed tile needs far fewer pixels than a phone photo has, and a JPEG already stores each 8×8 block's average as its
/// DC coefficient: reading only those gives the photo at 1/8 scale with no inverse DCT, which is what makes this fast
/// enough to run inside the upload request. Everything read from the input is bounds-checked; damaged or hostile input
/// answers nil rather than trapping.
public enum JPEGThumbnailer {
    /// A baseline JPEG whose longer side is at most `maxSide` pixels (aspect kept, never upscaled: a picture already
    /// small enough answers nil, meaning "serve the original"), or nil when the input uses something this decoder does
    /// not read (arithmetic coding, 12-bit samples, 4-component CMYK/YCCK, lossless/hierarchical) or is damaged.
    /// If the input carries an APP1 "Exif" segment, copy it unchanged into the output right after SOI/APP0 (the
    /// sanitizer leaves only an orientation tag there, which the thumbnail must keep so it shows the right way up).
    public static func thumbnail(_ jpeg: Data, maxSide: Int = 480, quality: Int = 80) -> Data? {
        guard maxSide > 0, let image = eighthScale(jpeg, onlyIfLongerThan: maxSide) else { return nil }
        let scale = Double(maxSide) / Double(max(image.width, image.height))
        let width = min(maxSide, max(1, Int((Double(image.width) * scale).rounded())))
        let height = min(maxSide, max(1, Int((Double(image.height) * scale).rounded())))
        let pixels = Resampler.resample(image, width: width, height: height)
        let encoded = BaselineEncoder.encode(
            pixels,
            width: width,
            height: height,
            channels: image.channels,
            quality: quality,
            exif: image.exif
        )
        return Data(encoded)
    }

    /// The picture at 1/8 scale, read from its DC coefficients alone; nil when unreadable. Internal so tests can look at
    /// the colours of a thumbnail the way this decoder sees them.
    static func eighthScale(_ jpeg: Data) -> EighthScaleImage? {
        eighthScale(jpeg, onlyIfLongerThan: 0)
    }

    /// Checking the size at the frame header skips decoding pictures that will be served as they are.
    private static func eighthScale(_ jpeg: Data, onlyIfLongerThan limit: Int) -> EighthScaleImage? {
        var decoder = DCDecoder(bytes: [UInt8](jpeg))
        return decoder.decode(onlyIfLongerThan: limit)
    }
}

/// A JPEG read at 1/8 scale: one pixel per 8×8 block of the original.
struct EighthScaleImage {
    /// The original's size in pixels.
    var width: Int
    var height: Int
    /// The 1/8-scale picture's size: the original's divided by 8, rounded up (a partial edge block is a pixel too).
    var scaledWidth: Int
    var scaledHeight: Int
    /// 1 for grayscale, 3 for RGB.
    var channels: Int
    /// Row by row, `channels` bytes a pixel.
    var samples: [UInt8]
    /// The input's first APP1 "Exif" segment, marker and length included, to be copied into the thumbnail.
    var exif: [UInt8]?
}
