import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Listing photos as Pillow 13 writes them (quality 30, to keep this file small), all a red left half beside a blue right
/// half unless said otherwise: a 640×480 baseline 4:2:0 JPEG with optimized Huffman tables; at 320×240 the same as
/// progressive, as 4:4:4 (no chroma subsampling), with a restart marker every 7 MCUs, as a grayscale top-to-bottom
/// gradient, with an EXIF APP1 holding orientation 6; a 100×80 one; and a 64×48 CMYK (Adobe) JPEG.
@Suite struct JPEGThumbnailerTests {
    static let baseline = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/",
            "2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCAHgAoADASIAAhEBAxEB/8QA",
            "FgABAQEAAAAAAAAAAAAAAAAAAAME/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/EABcBAQEBAQAAAAAAAAAAAAAAAAAGBAX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA",
            "/9oADAMBAAIRAxEAPwDGAzO2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4A",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU",
            "4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkA",
            "oU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "kAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAqAnlGAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA//9k=",
        ].joined()
    )
    static let progressive = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/",
            "2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wgARCADwAUADASIAAhEBAxEB/8QA",
            "FgABAQEAAAAAAAAAAAAAAAAAAAID/8QAFwEBAQEBAAAAAAAAAAAAAAAAAAUDBP/aAAwDAQACEAMQAAABxGXaAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAo",
            "zgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAA",
            "AABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iA",
            "AAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAALE6iAAAAAAAABAozgAAAAAAAAP/8QAFBABAAAAAAAAAAAAAAAA",
            "AAAAoP/aAAgBAQABBQIWH//EABQRAQAAAAAAAAAAAAAAAAAAAID/2gAIAQMBAT8BFn//xAAUEQEAAAAAAAAAAAAAAAAAAACA/9oACAECAQE/ARZ//8QAFBAB",
            "AAAAAAAAAAAAAAAAAAAAoP/aAAgBAQAGPwIWH//EABQQAQAAAAAAAAAAAAAAAAAAAKD/2gAIAQEAAT8hFh//2gAMAwEAAgADAAAAEAwwwwwwwww/PPPPPPPP",
            "PAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPP",
            "PAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPP",
            "PAwwwwwwwww/PPPPPPPPPAwwwwwwwww/PPPPPPPPPP/EABQRAQAAAAAAAAAAAAAAAAAAAID/2gAIAQMBAT8QFn//xAAUEQEAAAAAAAAAAAAAAAAAAACA/9oA",
            "CAECAQE/EBZ//8QAFBABAAAAAAAAAAAAAAAAAAAAoP/aAAgBAQABPxAWH//Z",
        ].joined()
    )
    static let fullChroma = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/",
            "2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCADwAUADAREAAhEBAxEB/8QA",
            "FgABAQEAAAAAAAAAAAAAAAAAAAME/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/EABcBAQEBAQAAAAAAAAAAAAAAAAAGBAX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA",
            "/9oADAMBAAIRAxEAPwDGzO2AAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAA",
            "AAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAA",
            "AAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAA",
            "AAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAq",
            "nlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AA",
            "AAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAA",
            "AAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAA",
            "AAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAA",
            "AAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnl",
            "GAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAA",
            "AAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAA",
            "AAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAAqnlGAAAAAAAAAAAAAAAAAAAkoU4AAAAAAAAAAAAAAAAAAA//9k=",
        ].joined()
    )
    static let restarts = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/",
            "2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCADwAUADASIAAhEBAxEB/8QA",
            "FwABAQEBAAAAAAAAAAAAAAAAAAMEBf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAXAQEBAQEAAAAAAAAAAAAAAAAABgQF/8QAFBEBAAAAAAAAAAAAAAAAAAAA",
            "AP/dAAQAB//aAAwDAQACEQMRAD8AxgMztgAAAAAAAAAAAP/QxgMztgAAAJAKFOAAAAAAP//R5wDsM4AAAAAAAAACoCeUb//SxgMztgAAAAAAAAAAAP/TxgMz",
            "tgAJAKFOAAAAAAAAP//U5wDsM4AAAAAAACoCeUYAD//VxgMztgAAAAAAAAAAAP/WxgMztpAKFOAAAAAAAAAAP//X5wDsM4AAAAACoCeUYAAAD//QxgMztgAA",
            "AAAAAAAAAP/R5wDsM4AAAAAAAAAAAD//0ucA7DOAAAAqAnlGAAAAAA//08YDM7YAAAAAAAAACQChTj//1OcA7DOAAAAAAAAAAAA//9XnAOwzgAKgJ5RgAAAA",
            "AAAP/9bGAzO2AAAAAAAAkAoU4AA//9fnAOwzgAAAAAAAAAAAP//Q5wDsM6oCeUYAAAAAAAAAD//RxgMztgAAAAAJAKFOAAAAP//S5wDsM4AAAAAAAAAAAD//",
            "08YDM7YAAAAAAAAAAAD/1MYDM7YAAACQChTgAAAAAD//1ecA7DOAAAAAAAAAAqAnlG//1sYDM7YAAAAAAAAAAAD/18YDM7YACQChTgAAAAAAAD//0OcA7DOA",
            "AAAAAAAqAnlGAA//0cYDM7YAAAAAAAAAAAD/0sYDM7aQChTgAAAAAAAAAD//0+cA7DOAAAAAAqAnlGAAAA//1MYDM7YAAAAAAAAAAAD/1ecA7DOAAAAAAAAA",
            "AAA//9bnAOwzgAAAKgJ5RgAAAAAP/9fGAzO2AAAAAAAAAAkAoU4//9DnAOwzgAAAAAAAAAAAP//R5wDsM4ACoCeUYAAAAAAAD//SxgMztgAAAAAAAJAKFOAA",
            "P//T5wDsM4AAAAAAAAAAAD//1OcA7DOqAnlGAAAAAAAAAA//1cYDM7YAAAAACQChTgAAAD//1ucA7DOAAAAAAAAAAAA//9fGAzO2AAAAAAAAAAAA/9DGAzO2",
            "AAAAkAoU4AAAAAA//9HnAOwzgAAAAAAAAAP/2Q==",
        ].joined()
    )
    static let grayscale = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/",
            "wAALCADwAUABAREA/8QAFgABAQEAAAAAAAAAAAAAAAAAAAIG/8QAFRABAQAAAAAAAAAAAAAAAAAAABH/2gAIAQEAAD8AzUIQhCEIQhCEIQhCEIQhCEIQhCEI",
            "QhCEIQi4QhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhFQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCLhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEVCEIQhCEIQhC",
            "EIQhCEIQhCEIQhCEIQhCEIuEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIRUIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQi4QhCEIQhCEIQhCEIQhCEIQhCEIQhCE",
            "IQhFQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCLhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEXCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIqEIQhCEIQhCEIQh",
            "CEIQhCEIQhCEIQhCEIRcIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQioQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhFwhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhC",
            "KhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEXCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIqEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIRcIQhCEIQhCEIQhCEIQ",
            "hCEIQhCEIQhCEIQioQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhFwhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCKhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEXCE",
            "IQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIqEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIRcIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQioQhCEIQhCEIQhCEIQhCEI",
            "QhCEIQhCEIQhFwhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCLhCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEVCEIQhCEIQhCEIQhCEIQhCEIQhCEIQhCEIuEIQhC",
            "EIQhCEIQhCEIQhCEIQhCEIQhCEIR/9k=",
        ].joined()
    )
    static let rotated = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/4QAiRXhpZgAATU0AKgAAAAgAAQESAAMAAAABAAYAAAAAAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVl",
            "ZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSk",
            "pKSkpKSkpKSkpKSkpKT/wAARCADwAUADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAAAAME/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/EABcBAQEBAQAA",
            "AAAAAAAAAAAAAAAGBAX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwDGAzO2AAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAA",
            "AAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAA",
            "AAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAA",
            "AAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAA",
            "AqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU",
            "4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAAAAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAAqAnlGAAAA",
            "AAAAAAAAAAAAAAkAoU4AAAAAAAAAAAAAAAAAA//Z",
        ].joined()
    )
    static let small = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/",
            "2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCABQAGQDASIAAhEBAxEB/8QA",
            "FwABAQEBAAAAAAAAAAAAAAAAAAEDBP/EABcQAQADAAAAAAAAAAAAAAAAAAABAjL/xAAYAQEBAQEBAAAAAAAAAAAAAAAABQMGBP/EABkRAQACAwAAAAAAAAAA",
            "AAAAAAABAgMzcf/aAAwDAQACEQMRAD8A4wHmWwAAAGd9Si31KLuLXXkIGbZbsgDRmAAAA1Ac86MAAABnfUot9Si7i115CBm2W7IA0ZgAAANQHPOjAAAAZ31K",
            "LfUou4tdeQgZtluyANGYAAADUBzzowAAAGd9Si31KLuLXXkIGbZbsgDRmAAAA1Ac86MAAABnfUot9Si7i115CBm2W7IA0ZgAAAP/2Q==",
        ].joined()
    )
    static let cmyk = fixture(
        [
            "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwAbEhQXFBEbFxYXHhwbIChCKyglJShROj0wQmBVZWRfVV1baniZgWpxkHNbXYW1hpCeo6utq2eAvMm6pseZqKuk/8AA",
            "FAgAMABABEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQci",
            "cRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqi",
            "o6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwDbrCrCrpqKKKKKKKKKKKK4erNd",
            "xRRRRRRRRRRRRRXcVWrh6KKKKKKKKKKKKK4erNdxRRRRRRRRRRRRRXcVWrh6KKKKKKKKKKKKK4erNdxRRRRRRRRRRRRRXcVWrh6KKKKKKKKKKKKK4erNdxRR",
            "RRRRRRRRRRRXcVWrh6KKKKKKKKKKKKK4erNdxRRRRRRRRRRRRRXcVWrh6KKKKKKKKKKKKK4erNdxRRRRRRRRRRRRRX//2Q==",
        ].joined()
    )

    static func fixture(_ base64: String) -> Data {
        Data(base64Encoded: base64) ?? Data()
    }

    /// The marker segments before the first scan (marker, payload without the length), as a browser reads them.
    static func segments(_ jpeg: Data) -> [(marker: UInt8, payload: [UInt8])] {
        let bytes = [UInt8](jpeg)
        var found: [(marker: UInt8, payload: [UInt8])] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            let end = position + 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
            guard end <= bytes.count else { break }
            found.append((marker, Array(bytes[(position + 4)..<end])))
            if marker == 0xDA { break }
            position = end
        }
        return found
    }

    /// Width, height and component count of the SOF0 (baseline) frame; nil when the picture has none.
    static func baselineFrame(_ jpeg: Data) -> (width: Int, height: Int, components: Int)? {
        guard let frame = segments(jpeg).first(where: { $0.marker == 0xC0 })?.payload, frame.count >= 6 else {
            return nil
        }
        return (Int(frame[3]) << 8 | Int(frame[4]), Int(frame[1]) << 8 | Int(frame[2]), Int(frame[5]))
    }

    /// The thumbnail's pixel at (x, y) of its 1/8-scale picture, as the decoder sees it.
    static func colour(_ image: EighthScaleImage, x: Int, y: Int) -> [Int] {
        let first = (y * image.scaledWidth + x) * image.channels
        return image.samples[first..<(first + image.channels)].map { Int($0) }
    }

    static func isClose(_ colour: [Int], to expected: [Int]) -> Bool {
        colour.count == expected.count && zip(colour, expected).allSatisfy { abs($0 - $1) <= 40 }
    }

    /// Red on the left, blue on the right, within ±40 per channel, sampled a quarter of the way in from each side.
    static func showsRedBesideBlue(_ thumbnail: Data) -> Bool {
        guard let image = JPEGThumbnailer.eighthScale(thumbnail) else { return false }
        let middle = image.scaledHeight / 2
        let left = colour(image, x: image.scaledWidth / 4, y: middle)
        let right = colour(image, x: image.scaledWidth * 3 / 4, y: middle)
        return isClose(left, to: [220, 30, 30]) && isClose(right, to: [30, 60, 220])
    }

    @Test func aPhotoLargerThanTheTileBecomesABaselineJPEGOfTheTileSize() throws {
        let thumbnail = try #require(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 160))
        #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]))
        #expect(thumbnail.suffix(2) == Data([0xFF, 0xD9]))
        let frame = try #require(Self.baselineFrame(thumbnail))
        #expect(frame.width == 160 && frame.height == 120 && frame.components == 3)
        #expect(thumbnail.count < Self.baseline.count)
    }

    @Test func aPhotoEightTimesTheTileOrMoreIsShrunkFromItsBlockAverages() throws {
        // 640×480 read at 1/8 is 80×60, then averaged down to 60×45.
        let thumbnail = try #require(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 60))
        let frame = try #require(Self.baselineFrame(thumbnail))
        #expect(frame.width == 60 && frame.height == 45)
        #expect(Self.showsRedBesideBlue(thumbnail))
    }

    @Test func theThumbnailKeepsThePhotosColours() throws {
        let thumbnail = try #require(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 160))
        #expect(Self.showsRedBesideBlue(thumbnail))
        // The source itself, read the same way, is the reference the colours are compared with.
        #expect(Self.showsRedBesideBlue(Self.baseline))
    }

    @Test func aLowerQualityGivesASmallerThumbnail() throws {
        let low = try #require(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 160, quality: 20))
        let high = try #require(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 160, quality: 95))
        #expect(low.count < high.count)
        #expect(Self.showsRedBesideBlue(low) && Self.showsRedBesideBlue(high))
    }

    @Test(arguments: [("progressive", 0xC2), ("4:4:4", 0xC0), ("restart-interval", 0xDD)])
    func progressiveFullChromaAndRestartIntervalPhotosAllMakeThumbnails(kind: String, marker: Int) throws {
        let photo = try #require(
            ["progressive": Self.progressive, "4:4:4": Self.fullChroma, "restart-interval": Self.restarts][kind]
        )
        // The fixture really is what it says: SOF2, or a DRI segment.
        #expect(Self.segments(photo).contains { $0.marker == UInt8(marker) })
        let thumbnail = try #require(JPEGThumbnailer.thumbnail(photo, maxSide: 80))
        let frame = try #require(Self.baselineFrame(thumbnail))
        #expect(frame.width == 80 && frame.height == 60 && frame.components == 3)
        #expect(Self.showsRedBesideBlue(thumbnail))
    }

    @Test func aGrayscalePhotoGivesAOneComponentThumbnailThatKeepsItsShading() throws {
        let thumbnail = try #require(JPEGThumbnailer.thumbnail(Self.grayscale, maxSide: 80))
        let frame = try #require(Self.baselineFrame(thumbnail))
        #expect(frame.width == 80 && frame.height == 60 && frame.components == 1)
        let image = try #require(JPEGThumbnailer.eighthScale(thumbnail))
        #expect(image.channels == 1)
        // Pillow's gradient runs from black at the top to white at the bottom.
        let top = Self.colour(image, x: 5, y: 0)[0]
        let bottom = Self.colour(image, x: 5, y: image.scaledHeight - 1)[0]
        #expect(top < 60 && bottom > 195)
    }

    @Test func theEXIFOrientationIsCarriedOverByteForByteRightAfterJFIF() throws {
        let thumbnail = try #require(JPEGThumbnailer.thumbnail(Self.rotated, maxSide: 80))
        let exif = try #require(Self.segments(Self.rotated).first { $0.marker == 0xE1 }?.payload)
        #expect(exif.starts(with: Array("Exif\0\0".utf8)))
        let kept = Self.segments(thumbnail)
        #expect(kept.count > 2 && kept[0].marker == 0xE0 && kept[1].marker == 0xE1)
        #expect(kept.count > 1 && kept[1].payload == exif)
        // A photo without EXIF gets none.
        let plain = try #require(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 80))
        #expect(!Self.segments(plain).contains { $0.marker == 0xE1 })
    }

    @Test func aPhotoAlreadySmallEnoughIsServedAsItIs() {
        #expect(JPEGThumbnailer.thumbnail(Self.small, maxSide: 160) == nil)
        #expect(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 640) == nil)
        #expect(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 639) != nil)
    }

    @Test func aCMYKPhotoIsNotThumbnailed() {
        #expect(JPEGThumbnailer.thumbnail(Self.cmyk, maxSide: 16) == nil)
    }

    @Test func aPhotoCutInHalfIsNotThumbnailed() {
        #expect(JPEGThumbnailer.thumbnail(Self.baseline.prefix(Self.baseline.count / 2), maxSide: 160) == nil)
        #expect(JPEGThumbnailer.thumbnail(Self.progressive.prefix(Self.progressive.count / 2), maxSide: 80) == nil)
        #expect(JPEGThumbnailer.thumbnail(Data(), maxSide: 80) == nil)
    }

    @Test func damagedBytesNeverCrashTheThumbnailer() {
        var random = SplitMix64(seed: 2024)
        for photo in [Self.baseline, Self.progressive, Self.restarts] {
            let bytes = [UInt8](photo)
            for _ in 0..<100 {
                var damaged = bytes
                damaged[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                _ = JPEGThumbnailer.thumbnail(Data(damaged), maxSide: 40)
            }
            for _ in 0..<30 {
                _ = JPEGThumbnailer.thumbnail(Data(bytes.prefix(Int(random.next() % UInt64(bytes.count)))), maxSide: 40)
            }
        }
        // Still working afterwards: nothing above was allowed to trap.
        #expect(JPEGThumbnailer.thumbnail(Self.baseline, maxSide: 40) != nil)
    }
}

/// A small seeded generator, so a crash found by the damage test can be replayed.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
