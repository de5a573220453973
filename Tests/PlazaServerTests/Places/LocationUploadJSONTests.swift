import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

/// Issue 43: uploads are read without `JSONDecoder` when they have the usual shape, and must come out the same.
@Suite struct LocationUploadJSONTests {
    func fast(_ text: String) -> LocationUpload? {
        var text = text
        return text.withUTF8 { LocationUpload(json: UnsafeRawBufferPointer($0)) }
    }

    func standard(_ text: String) -> LocationUpload? {
        try? PlazaJSON.decoder().decode(LocationUpload.self, from: Data(text.utf8))
    }

    @Test func theUsualShapesReadAsJSONDecoderReadsThem() throws {
        let bodies = [
            #"{"points":[{"latitude":48.137762,"longitude":11.574690,"accuracy":8,"recordedAt":"2026-11-23T10:00:00Z"}]}"#,
            #" { "points" : [ { "recordedAt" : "2026-11-23T10:00:00.250Z" , "longitude" : -0.5e-3 , "latitude" : 1E2 } ] } "#,
            #"{"points":[{"latitude":0,"longitude":-0.0,"accuracy":null,"recordedAt":"2026-11-23T10:00:00+02:30"}]}"#,
            #"{"points":[{"latitude":1.5,"longitude":2,"recordedAt":"2026-11-23t10:00:00z"},"#
                + #"{"latitude":3,"longitude":4,"accuracy":12.75,"recordedAt":"2026-02-28T23:59:59-01:00"}]}"#,
            #"{"points":[]}"#,
        ]
        for body in bodies {
            let read = try #require(fast(body), "not read: \(body)")
            #expect(read == standard(body), "\(body)")
        }
    }

    @Test func anythingElseIsLeftToJSONDecoder() {
        let bodies = [
            #"{"points":[{"latitude":"NaN","longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":1e400,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":01,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":1.,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":+1,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"lat\u0069tude":1,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":1,"latitude":2,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":1,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z","speed":3}]}"#,
            #"{"points":[{"latitude":1,"longitude":1,"recordedAt":"2026-11-23 00:00:00"}]}"#,
            #"{"points":[{"latitude":1,"longitude":1,"recordedAt":"2026-02-30T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":1,"longitude":1}]}"#,
            #"{"points":[{"latitude":48e-377,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
            #"{"points":[{"latitude":1,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"},]}"#,
            #"{"points":[{"latitude":1,"longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]} x"#,
            #"{"points":[],"points":[]}"#,
            "\u{FEFF}{\"points\":[]}",
            #"[]"#,
            "",
        ]
        for body in bodies { #expect(fast(body) == nil, "\(body)") }
    }

    /// Bodies with random bytes changed: whatever the fast reader accepts, `JSONDecoder` reads the same way.
    @Test func aMangledBodyIsReadTheSameWayOrNotAtAll() {
        let body =
            Array(
                #"{"points":[{"latitude":48.1377,"longitude":-11.5e1,"accuracy":8,"recordedAt":"2026-11-23T10:00:00.5Z"},"#
                    .utf8
            ) + Array(#"{"recordedAt":"2026-11-23T10:00:01Z","latitude":-0,"longitude":7,"accuracy":null}]}"#.utf8)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]:,." -+eE0123456789nulZT\"#.utf8)
        var read = 0
        for _ in 0..<20_000 {
            var mangled = body
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let at = Int.random(in: 0..<mangled.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mangled[at] = alphabet.randomElement(using: &generator)!
                case 1: mangled.remove(at: at)
                default: mangled.insert(alphabet.randomElement(using: &generator)!, at: at)
                }
            }
            let text = String(decoding: mangled, as: UTF8.self)
            guard let value = fast(text) else { continue }
            read += 1
            #expect(value == standard(text), "\(text)")
        }
        #expect(read > 100)
    }
}
