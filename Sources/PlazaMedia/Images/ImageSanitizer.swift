import Foundation
import PlazaCore

/// An image format Plaza takes for uploads, named by its media type.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"

    /// The name people know the format by, for messages.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }
}

/// An uploaded image checked by its content and stripped of its metadata: what Plaza stores and serves.
public struct SanitizedImage: Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// The image's bytes with every metadata block removed (see below); what Plaza stores and serves.
    public var bytes: Data
    /// EXIF orientation 1–8 of the original (1 when none); kept in `bytes` for JPEG as the only EXIF tag.
    public var orientation: Int

    /// An image as the sanitizer answers it.
    public init(format: ImageFormat, width: Int, height: Int, bytes: Data, orientation: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.orientation = orientation
    }
}

/// Why an upload is not taken as an image.
public enum ImageRefusal: Error, Sendable, Hashable {
    /// A format Plaza does not take, by content: HEIC/HEIF, AVIF, GIF, BMP, TIFF, SVG, PDF... The associated value is a
    /// human name such as "HEIC" or "GIF".
    case unsupported(String)
    /// Not a readable image of the declared type: damaged, truncated, an unknown format, or content that does not match
    /// the declared Content-Type. The associated value is a short English sentence for the user.
    case invalid(String)
}

/// Checks uploaded photos by their bytes and strips them of EXIF, XMP, comments and every location tag before anyone
/// else can fetch them. No image library: the containers (JPEG segments, PNG chunks, RIFF chunks) are walked byte by
/// byte, every read bounds-checked, so hostile input is refused rather than trusted; pixels are never decoded.
public enum ImageSanitizer {
    /// The format the bytes are, by their signature: "image/jpeg", "image/png", "image/webp", "image/heic" (ISO BMFF `ftyp`
    /// with brands heic, heix, hevc, heim, heis, hevm, hevs, mif1, msf1), "image/avif" (brand avif/avis), "image/gif",
    /// "image/bmp", "image/tiff", "application/pdf", "image/svg+xml" (text starting with `<svg` or `<?xml` ... `<svg`); nil when unknown.
    public static func sniff(_ data: Data) -> String? {
        // Every signature sits in the first bytes; an SVG's root element may follow a long prolog, but not that long.
        sniff(ByteReader(Array(data.prefix(sniffedLength))))
    }

    /// Checks `data` is a well-formed image of the `declared` Content-Type (parameters like `; charset` ignored, case-insensitive)
    /// and answers it stripped. Order of checks: if the sniffed type is a non-accepted image format → `.unsupported(name)`
    /// (even if declared says jpeg); if the declared type is not one of ImageFormat → `.unsupported(declared)`;
    /// if sniffed != declared → `.invalid("The file is not a JPEG image." / "...PNG..." / "...WebP...")`; then parse.
    ///
    /// `.unsupported(declared)` carries the declared media type without its parameters, lowercased ("text/plain").
    public static func sanitize(_ data: Data, declared: String) -> Result<SanitizedImage, ImageRefusal> {
        let sniffed = sniff(data)
        if let sniffed, ImageFormat(rawValue: sniffed) == nil {
            return .failure(.unsupported(unsupportedNames[sniffed] ?? sniffed))
        }
        let mediaType = (declared.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard let format = ImageFormat(rawValue: mediaType) else { return .failure(.unsupported(mediaType)) }
        guard sniffed == format.rawValue else { return .failure(.invalid("The file is not a \(format.name) image.")) }
        let bytes = ByteReader(Array(data))
        switch format {
        case .jpeg: return sanitizeJPEG(bytes)
        case .png: return sanitizePNG(bytes)
        case .webp: return sanitizeWebP(bytes)
        }
    }

    // MARK: Sniffing

    private static let sniffedLength = 4096

    /// Human names of the image formats Plaza recognizes but does not take.
    private static let unsupportedNames: [String: String] = [
        "image/heic": "HEIC", "image/avif": "AVIF", "image/gif": "GIF", "image/bmp": "BMP", "image/tiff": "TIFF",
        "application/pdf": "PDF", "image/svg+xml": "SVG",
    ]

    private static let heicBrands: Set<String> = [
        "heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "mif1", "msf1",
    ]
    private static let avifBrands: Set<String> = ["avif", "avis"]

    private static func sniff(_ bytes: ByteReader) -> String? {
        if bytes.matches(0, [0xFF, 0xD8, 0xFF]) { return ImageFormat.jpeg.rawValue }
        if bytes.matches(0, pngSignature) { return ImageFormat.png.rawValue }
        if bytes.matches(0, "RIFF"), bytes.matches(8, "WEBP") { return ImageFormat.webp.rawValue }
        if bytes.matches(4, "ftyp") { return sniffISOBMFF(bytes) }
        if bytes.matches(0, "GIF87a") || bytes.matches(0, "GIF89a") { return "image/gif" }
        if bytes.matches(0, "II*\0") || bytes.matches(0, "MM\0*") { return "image/tiff" }
        if bytes.matches(0, "%PDF-") { return "application/pdf" }
        // "BM" alone starts too much text; a BMP's DIB header has one of a few known sizes.
        if bytes.matches(0, "BM"), let header = bytes.u32(14, bigEndian: false),
            [12, 40, 52, 56, 64, 108, 124].contains(header)
        {
            return "image/bmp"
        }
        if isSVG(bytes) { return "image/svg+xml" }
        return nil
    }

    /// HEIF and AVIF share the ISO base media file format; the `ftyp` box's brands tell them apart. AVIF files usually
    /// list `mif1` too, so AVIF's brands are looked for first.
    private static func sniffISOBMFF(_ bytes: ByteReader) -> String? {
        guard let size = bytes.u32(0, bigEndian: true) else { return nil }
        // Size 1: a 64-bit size follows the type; size 0: the box runs to the end of the file.
        let brandsStart = size == 1 ? 16 : 8
        let boxEnd = size <= 1 ? bytes.count : min(size, bytes.count)
        var brands: [String] = []
        if let major = bytes.ascii(brandsStart, 4) { brands.append(major) }
        var position = brandsStart + 8  // past the minor version
        while position + 4 <= boxEnd, let brand = bytes.ascii(position, 4) {
            brands.append(brand)
            position += 4
        }
        if brands.contains(where: avifBrands.contains) { return "image/avif" }
        if brands.contains(where: heicBrands.contains) { return "image/heic" }
        return nil
    }

    /// Text opening with an `<svg` root, or with an XML declaration and an `<svg` later on (a BOM and whitespace may lead).
    private static func isSVG(_ bytes: ByteReader) -> Bool {
        var position = bytes.matches(0, [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while let byte = bytes.u8(position), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { position += 1 }
        let text = String(decoding: bytes.raw[position...], as: UTF8.self).lowercased()
        if text.hasPrefix("<svg") { return true }
        return text.hasPrefix("<?xml") && text.contains("<svg")
    }

    // MARK: JPEG

    private static let startOfFrameMarkers: Set<UInt8> = [
        0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
    ]
    /// DQT, DHT, DAC, DNL, DRI, DHP, EXP: tables and parameters the decoder needs, never metadata.
    private static let tableMarkers: Set<UInt8> = [0xDB, 0xC4, 0xCC, 0xDC, 0xDD, 0xDE, 0xDF]

    private static func sanitizeJPEG(_ bytes: ByteReader) -> Result<SanitizedImage, ImageRefusal> {
        let damaged = ImageRefusal.invalid("The JPEG image is damaged.")
        let incomplete = ImageRefusal.invalid("The JPEG image is incomplete; try uploading it again.")
        guard bytes.matches(0, [0xFF, 0xD8]) else { return .failure(damaged) }
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var exifInsertion = 2  // right after the JFIF APP0 once one is kept, else right after SOI
        var orientation: Int?
        var size: (width: Int, height: Int)?
        var scans = 0
        var position = 2
        while true {
            guard let byte = bytes.u8(position) else { return .failure(incomplete) }
            guard byte == 0xFF else { return .failure(damaged) }
            // Any number of 0xFF fill bytes may precede a marker; the output writes each marker without them.
            while bytes.u8(position) == 0xFF { position += 1 }
            guard let markerByte = bytes.u8(position) else { return .failure(incomplete) }
            let marker = UInt8(markerByte)
            position += 1
            switch marker {
            case 0xD9:
                guard let size, scans > 0 else { return .failure(damaged) }
                // Whatever follows EOI is not image; it is dropped rather than served.
                output += [0xFF, 0xD9]
                let kept = orientation ?? 1
                if kept != 1 { output.insert(contentsOf: minimalEXIF(orientation: kept), at: exifInsertion) }
                let image = SanitizedImage(
                    format: .jpeg,
                    width: size.width,
                    height: size.height,
                    bytes: Data(output),
                    orientation: kept
                )
                return .success(image)
            case 0x01, 0xD0...0xD7:
                continue  // TEM and stray restart markers stand alone and mean nothing outside a scan
            case 0x00, 0xD8:
                return .failure(damaged)
            default:
                break
            }
            guard let length = bytes.u16(position, bigEndian: true) else { return .failure(incomplete) }
            guard length >= 2 else { return .failure(damaged) }
            guard let segment = bytes.slice(position + 2, length - 2) else { return .failure(incomplete) }
            let next = position + length
            let whole = [0xFF, marker] + bytes.raw[position..<next]
            switch marker {
            case 0xE0:
                // Only JFIF's, and without its thumbnail: a thumbnail can show what the photo was cropped to hide.
                if exifInsertion == 2, segment.matches(0, "JFIF\0"), let header = segment.slice(0, 12) {
                    output += [0xFF, 0xE0, 0x00, 0x10] + header.raw + [0, 0]
                    exifInsertion = output.count
                }
            case 0xE1:
                // EXIF (location, camera, thumbnail) and XMP go; only the orientation is read, from the first EXIF block.
                if orientation == nil, segment.matches(0, "Exif\0\0"), let tiff = segment.slice(6, segment.count - 6) {
                    orientation = exifOrientation(tiff)
                }
            case 0xE2:
                if segment.matches(0, "ICC_PROFILE\0") { output += whole }  // colors would shift without it
            case 0xEE:
                if segment.matches(0, "Adobe") { output += whole }  // says how CMYK/YCCK components are transformed
            case 0xE3...0xEF, 0xFE:
                break  // other application data and comments
            case _ where tableMarkers.contains(marker):
                output += whole
            case _ where startOfFrameMarkers.contains(marker):
                if size == nil {
                    guard let height = segment.u16(1, bigEndian: true), let width = segment.u16(3, bigEndian: true),
                        let components = segment.u8(5), components > 0, segment.count >= 6 + 3 * components,
                        width > 0, height > 0
                    else { return .failure(damaged) }
                    size = (width, height)
                }
                output += whole
            case 0xDA:
                guard size != nil, let components = segment.u8(0), components > 0, segment.count >= 4 + 2 * components
                else {
                    return .failure(damaged)
                }
                output += whole
                // Entropy-coded data runs to the next marker: FF00 is a stuffed 0xFF and RST0–7 belong to the scan.
                var end = next
                while true {
                    guard let byte = bytes.u8(end) else { return .failure(incomplete) }
                    if byte != 0xFF {
                        end += 1
                        continue
                    }
                    guard let following = bytes.u8(end + 1) else { return .failure(incomplete) }
                    if following == 0x00 || (0xD0...0xD7).contains(following) {
                        end += 2
                    } else if following == 0xFF {
                        end += 1  // a fill byte before the marker
                    } else {
                        break
                    }
                }
                output += bytes.raw[next..<end]
                scans += 1
                position = end
                continue
            default:
                // JPEG extensions and reserved markers: nothing a camera or browser writes.
                return .failure(damaged)
            }
            position = next
        }
    }

    /// APP1 with "Exif\0\0", a big-endian TIFF header and IFD0 holding the Orientation tag alone.
    private static func minimalEXIF(orientation: Int) -> [UInt8] {
        var segment: [UInt8] = [0xFF, 0xE1, 0x00, 0x22]
        segment += Array("Exif\0\0".utf8)
        segment += Array("MM\0*".utf8) + [0x00, 0x00, 0x00, 0x08]
        segment += [0x00, 0x01]  // one entry
        segment += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation), 0x00, 0x00]
        segment += [0x00, 0x00, 0x00, 0x00]  // no next IFD
        return segment
    }

    /// The Orientation tag (0x0112) of IFD0 in a TIFF block (either byte order); nil when absent or out of range.
    private static func exifOrientation(_ tiff: ByteReader) -> Int? {
        let bigEndian: Bool
        if tiff.matches(0, "MM") {
            bigEndian = true
        } else if tiff.matches(0, "II") {
            bigEndian = false
        } else {
            return nil
        }
        guard tiff.u16(2, bigEndian: bigEndian) == 42, let directory = tiff.u32(4, bigEndian: bigEndian),
            let entries = tiff.u16(directory, bigEndian: bigEndian)
        else { return nil }
        for index in 0..<entries {
            let entry = directory + 2 + 12 * index
            guard let tag = tiff.u16(entry, bigEndian: bigEndian) else { return nil }
            guard tag == 0x0112 else { continue }
            guard tiff.u16(entry + 2, bigEndian: bigEndian) == 3, let value = tiff.u16(entry + 8, bigEndian: bigEndian),
                (1...8).contains(value)
            else { return nil }
            return value
        }
        return nil
    }

    /// EXIF as PNG's eXIf and WebP's EXIF chunks carry it: a TIFF block, which some writers prefix with "Exif\0\0".
    static func orientation(ofEXIFChunk chunk: ByteReader) -> Int? {
        guard chunk.matches(0, "Exif\0\0") else { return exifOrientation(chunk) }
        return chunk.slice(6, chunk.count - 6).flatMap(exifOrientation)
    }
}
