import Foundation

/// A binary PPM (P6, 8-bit) as pdftoppm writes it.
public struct PortablePixmap: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public struct Unreadable: Error {
        public var reason: String
    }

    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        // Header: "P6", width, height, maxval, separated by whitespace, then one whitespace byte and the samples.
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            let start = index
            while index < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
            fields[3] == "255"
        else {
            throw Unreadable(reason: "not an 8-bit P6 PPM: \(fields)")
        }
        self.width = width
        self.height = height
        pixels = Array(bytes[(index + 1)...])
        guard pixels.count >= width * height * 3 else { throw Unreadable(reason: "short PPM") }
    }

    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let at = (y * width + x) * 3
        return (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
    }
}
