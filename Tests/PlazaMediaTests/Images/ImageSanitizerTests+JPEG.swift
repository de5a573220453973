import Foundation
import PlazaCore
import PlazaMedia
import Testing

/// A sanitized JPEG: no location, XMP or comment, its scans byte for byte, only its orientation kept, damage refused.
extension ImageSanitizerTests {
    @Test func aStrippedJPEGKeepsNoLocationXMPOrComment() throws {
        let stripped = try ImageSanitizer.sanitize(Self.jpeg, declared: "image/jpeg").get().bytes
        let header = stripped.prefix(try #require(Self.jpegSegments(stripped)).scanStart)
        // The fixture has them all: the GPS IFD pointer (tag 0x8825), latitude 43/1, the maker, XMP and the comment.
        let gpsPointer = Data([0x88, 0x25])
        let latitude = Data([0, 0, 0, 43, 0, 0, 0, 1])
        for sign in [
            gpsPointer, latitude, Data("PhoneMaker".utf8), Data("http://ns.adobe.com/xap".utf8), Data("secret".utf8),
        ] {
            #expect(Self.jpeg.range(of: sign) != nil)
        }
        #expect(header.range(of: gpsPointer) == nil)
        #expect(stripped.range(of: latitude) == nil)
        #expect(stripped.range(of: Data("PhoneMaker".utf8)) == nil)
        #expect(stripped.range(of: Data("http://ns.adobe.com/xap".utf8)) == nil)
        #expect(stripped.range(of: Data("secret".utf8)) == nil)
        #expect(stripped.prefix(2) == Data([0xFF, 0xD8]))
        #expect(stripped.suffix(2) == Data([0xFF, 0xD9]))
        #expect(stripped.count < Self.jpeg.count)
    }

    @Test func aStrippedJPEGKeepsItsScanDataByteForByte() throws {
        for original in [Self.jpeg, Self.progressiveJPEG] {
            let stripped = try ImageSanitizer.sanitize(original, declared: "image/jpeg").get().bytes
            let before = try #require(Self.jpegSegments(original)).scanStart
            let after = try #require(Self.jpegSegments(stripped)).scanStart
            #expect(Data(stripped[after...]) == Data(original[before...]))
        }
    }

    @Test func aStrippedJPEGCarriesOnlyItsOrientationInAMinimalEXIF() throws {
        let image = try ImageSanitizer.sanitize(Self.jpeg, declared: "image/jpeg").get()
        #expect(image.orientation == 6)
        let segments = try #require(Self.jpegSegments(image.bytes))
        // JFIF, then the new EXIF, then tables, frame and scan: no XMP APP1, no COM.
        #expect(segments.markers == [0xE0, 0xE1, 0xDB, 0xDB, 0xC0, 0xC4, 0xC4, 0xC4, 0xC4, 0xDA])
        #expect(Self.exifOrientation(inJPEG: image.bytes) == 6)
    }

    @Test func aLittleEndianEXIFOrientationIsReadAndRewrittenBigEndian() throws {
        // IFD0 with two entries, in Intel order: Make, then Orientation 8.
        var tiff = Array("II*\0".utf8) + [8, 0, 0, 0, 2, 0]
        tiff += [0x0F, 0x01, 0x02, 0x00, 0x04, 0x00, 0x00, 0x00] + Array("Cam\0".utf8)
        tiff += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00] + [0, 0, 0, 0]
        let payload = Array("Exif\0\0".utf8) + tiff
        let app1 = [0xFF, 0xE1, 0x00, UInt8(payload.count + 2)] + payload
        var upload = Self.progressiveJPEG
        upload.insert(contentsOf: app1, at: 20)  // after SOI and the 18-byte JFIF APP0
        let image = try ImageSanitizer.sanitize(upload, declared: "image/jpeg").get()
        #expect(image.orientation == 8)
        #expect(Self.exifOrientation(inJPEG: image.bytes) == 8)
        #expect(image.bytes.range(of: Data("Cam".utf8)) == nil)
    }

    @Test func aJPEGWithoutEXIFGainsNone() throws {
        let image = try ImageSanitizer.sanitize(Self.progressiveJPEG, declared: "image/jpeg").get()
        #expect(image.orientation == 1)
        let segments = try #require(Self.jpegSegments(image.bytes))
        #expect(!segments.markers.contains(0xE1))
        #expect(image.bytes == Self.progressiveJPEG)
    }

    @Test func aProgressiveJPEGWithSeveralScansPasses() throws {
        let scans = try #require(Self.jpegSegments(Self.progressiveJPEG)).scanStart
        var sosCount = 0
        var index = scans
        while let found = Self.progressiveJPEG[index...].range(of: Data([0xFF, 0xDA])) {
            sosCount += 1
            index = found.upperBound
        }
        #expect(sosCount > 1)
        let image = try ImageSanitizer.sanitize(Self.progressiveJPEG, declared: "image/jpeg").get()
        #expect(image.width == 16 && image.height == 12)
    }

    @Test func aJPEGCutInHalfIsInvalid() {
        let half = Self.jpeg.prefix(Self.jpeg.count / 2)
        #expect(Self.isInvalid(ImageSanitizer.sanitize(half, declared: "image/jpeg")))
        let noEnd = Self.progressiveJPEG.dropLast(2)
        #expect(Self.isInvalid(ImageSanitizer.sanitize(noEnd, declared: "image/jpeg")))
    }

    @Test func sanitizingAStrippedJPEGAgainChangesNothing() throws {
        let once = try ImageSanitizer.sanitize(Self.jpeg, declared: "image/jpeg").get()
        let twice = try ImageSanitizer.sanitize(once.bytes, declared: "image/jpeg").get()
        #expect(twice == once)
    }
}
