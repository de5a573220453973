import Foundation
import PlazaCore

/// Small JPEG pictures for feeds, made from a PNG: decoded in full, composited over white, area-averaged down to the tile
/// and encoded the way `JPEGThumbnailer` encodes its own.
public enum PNGThumbnailer {
    /// A baseline JPEG whose longer side is at most `maxSide` pixels (aspect kept, never upscaled: a picture already that
    /// small answers nil, meaning "serve the original"), or nil when the PNG is unreadable or over
    /// `PNGDecoder.defaultMaxSamples`. Transparent parts show white, as a feed tile's background; gray stays one channel.
    public static func thumbnail(_ png: Data, maxSide: Int = 480, quality: Int = 80) -> Data? {
        // The header alone says whether the picture is small enough to serve as it is, before anything is inflated.
        guard maxSide > 0, let size = PNGDecoder.size(png), max(size.width, size.height) > maxSide,
            let image = try? PNGDecoder.decode(png)
        else { return nil }
        return thumbnail(image, maxSide: maxSide, quality: quality)
    }

    /// The same tile from a picture already decoded (the upload's check decodes it anyway).
    public static func thumbnail(_ image: PNGImage, maxSide: Int = 480, quality: Int = 80) -> Data? {
        guard let tile = tile(image, maxSide: maxSide) else { return nil }
        let encoded = BaselineEncoder.encode(
            tile.pixels,
            width: tile.width,
            height: tile.height,
            channels: tile.channels,
            quality: quality,
            exif: nil
        )
        return Data(encoded)
    }

    /// The tile's pixels before JPEG encoding (gray or RGB), kept apart so tests can look at them exactly.
    static func tile(_ image: PNGImage, maxSide: Int) -> (pixels: [UInt8], width: Int, height: Int, channels: Int)? {
        guard maxSide > 0, max(image.width, image.height) > maxSide else { return nil }
        let scale = Double(maxSide) / Double(max(image.width, image.height))
        let width = min(maxSide, max(1, Int((Double(image.width) * scale).rounded())))
        let height = min(maxSide, max(1, Int((Double(image.height) * scale).rounded())))
        let opaque = overWhite(image)
        // Compositing first is exact, not an approximation: blending with a constant is linear, so averaging the
        // composited pixels gives what averaging premultiplied ones and compositing afterwards would.
        let source = EighthScaleImage(
            fullSize: opaque.samples,
            width: image.width,
            height: image.height,
            channels: opaque.channels
        )
        return (Resampler.resample(source, width: width, height: height), width, height, opaque.channels)
    }

    /// Gray or RGB with any alpha blended over white: colour × alpha + 255 × (1 − alpha), rounded.
    static func overWhite(_ image: PNGImage) -> (samples: [UInt8], channels: Int) {
        guard image.channels == 2 || image.channels == 4 else { return (image.samples, image.channels) }
        let colors = image.channels - 1
        let pixelCount = image.width * image.height
        var output = [UInt8](repeating: 0, count: pixelCount * colors)
        image.samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for pixel in 0..<pixelCount {
                    let alpha = Int(input[pixel * image.channels + colors])
                    for channel in 0..<colors {
                        let color = Int(input[pixel * image.channels + channel])
                        output[pixel * colors + channel] = UInt8((color * alpha + 255 * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
        return (output, colors)
    }
}

extension EighthScaleImage {
    /// A full-size picture in the shape `Resampler` reads. It takes a picture's extent as `width / 8` over `scaledWidth`
    /// samples (made for a JPEG read at 1/8 scale), so an "original" eight times this picture's size makes each sample
    /// stand for exactly one pixel, and its area average (box filter) work on true pixels.
    init(fullSize samples: [UInt8], width: Int, height: Int, channels: Int) {
        self.init(
            width: width * 8,
            height: height * 8,
            scaledWidth: width,
            scaledHeight: height,
            channels: channels,
            samples: samples,
            exif: nil
        )
    }
}
