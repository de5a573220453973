import PlazaCore
import Testing

/// Symbols compared module for module with python-qrcode 8 (`QRCode(version:, error_correction=M, mask_pattern:)`),
/// which generated these fixtures: versions 1, 2, 4, 6, 7 (version information blocks) and 10 (16-bit length).
@Suite struct QRCodeTests {
    struct Fixture {
        var text: String
        var version: Int
        var mask: Int
        /// Row-major modules as hexadecimal, four per digit.
        var modules: String

        var bits: [Bool] {
            modules.flatMap { digit in
                let value = Int(String(digit), radix: 16) ?? 0
                return (0..<4).map { value >> (3 - $0) & 1 == 1 }
            }
        }
    }

    static let fixtures: [Fixture] = [
        Fixture(
            text: "plaza:pay:12345678", version: 2, mask: 3,
            modules: [
                "fe9e3fc151506e934bb75735dba072ec10d507faaafe010f00b76e25ce44221bb4bf0c0ac7c4311bb1a9a9ddebaa052adbc10730fb0056",
                "c5ffa62a7059113ba7cfc5d6757eeb70ed04022cfecb038",
            ].joined()),
        Fixture(
            text: "pay me", version: 1, mask: 0,
            modules: [
                "fe3bfc15106e96bb7475dbadaec13907faafe00800aa2893ccaaf6addfca3b2cb7748041b7f923f0484bbaab9dd2aeaeadeb04b82fe971",
                "8",
            ].joined()),
        Fixture(
            text: "Plaza QR, version 7, with version information blocks: 0123456789 abcdefghij", version: 7, mask: 5,
            modules: [
                "fe4d1f6a4bfc15b60e02906ea8453f14bb75e2ab3235dba1b3feafaec13bd440e107faaaaaaaafe0136f1d8d00829b2f9046756b87e5a1",
                "de109029c8bed5c1c73c65fec3774b61ab5dea65ace9ee89cf2bc3df8c90300d792d47d2f530af6240a39a1b766ad5bf19f97576b217c1",
                "16ddb9fc83fc26fb447dbc5be4632a1d2b216adf10d113531edfea9ffaffd18d99d61a9a9ad3f95daf85e0c2ef586464bb2ede909892fa",
                "4306a0833ed85a1c4c89b47092ba95ce2fc5d52518007f35ff8982c514b45d78f34c36d40759b68afcc3fa80544c734c57f91aea262bd0",
                "47c51c8d1eba730ff16fc5d1867262c52e86bf91d63b04e8b065b8cfe9254b74b10",
            ].joined()),
        Fixture(
            text:
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            version: 10, mask: 6,
            modules: [
                "feb738bbbbbf3fc17e1146b068906ea147981583cbb74b1ae75777a5dbafbe2bf9f292ec12545f12b07107faaaaaaaaaaafe00e568446b",
                "04009f918f3e7ca74b900893c77777f4b3e980ee0d60f7f728dd2bb06b264de83c19eeeee696e9a988be53ed02c94361f60d62c94b6146",
                "a222202daba75227ca7c204852f9553e5366eca08afc444465be028f0786b04bfc7b187287ca74ddcd7c2c67777f4aef3b66f8d60f7f38",
                "9586a806b264e25bee0e6eee6958499fe3a53ed027fc08bfa0d63e8f1a1044622211d5afffc2bca7da8545d72713e5346fbf99aefc4443",
                "faf8c424186b061f1acd23c07ca6e5a2d4155d77775c65a85fb48d609dc41af9f4306b0c40a3f6c7ceeefc19074d8ede53e783fcdcc35e",
                "0d6468408bacaa22228d4363f42dca7d882287a54f3e53cee7f74e66c4440fac212181b6b061f2add2f437ca6e5d096a1df77775ca9bc7",
                "4f58d609dff25baec706b0c403d2667eeeeff9004af8f1e53e443fb3433ae0d62a9056c3c4622211dbaf3f5ffca7cf85d51573a3e531a2",
                "e863153c4443bf042f1ecc6b054ffee2a5147ca6340",
            ].joined()),
        Fixture(
            text: "hello", version: 4, mask: 7,
            modules: [
                "fe3888bfc124a7d06e9cb06bb74baaa5dba58d62ec14435907faaaaafe0008350096d3d0d07a60ccc818dc53fdeca658369ffb11128805",
                "ae3a162f91ad946996eed6f37eb0032aaf9f37f9f10890db037ca4116d0e3fdbc2cddeafee4d3fdaf9e58361afcd99ff805685c5bf94e5",
                "6b905251110ba1583f9dd448e7bee9f88da3042bc804feee6bd70",
            ].joined()),
        Fixture(
            text: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", version: 6, mask: 1,
            modules: [
                "fe93e6663fc12ec444506eadb7776bb74b40ccc5dba31c6662ec16cc444507faaaaaaafe005e444400a32f999992f684ccccd87ac11ddd",
                "dab314e44448a2b339999b5949904ccd849c13bdddabb14e74448a3baa0999b5ea59ecccd841d925dddab40b884448a0f285f99b5c0fbc",
                "cccd84588bddddab60b04444883ec81999b4c0f88cccd862c29ddddaa19da44448abbae9199b584f840ccd870c6dddddaa09d844448aff",
                "3e1999fd807acecc447fb87c5daab041a48471aba5a7d99fddd1adccca46ea0edddf2b045e044528febc7998bc8",
            ].joined()),
    ]

    @Test(arguments: fixtures.indices)
    func drawsTheSameSymbolAsAReferenceEncoder(_ index: Int) {
        let fixture = Self.fixtures[index]
        let code = QRCode(bytes: Array(fixture.text.utf8), version: fixture.version, mask: fixture.mask)
        #expect(code.size == 17 + 4 * fixture.version)
        #expect(code.modules == Array(fixture.bits.prefix(code.size * code.size)))
    }

    @Test func picksTheSmallestVersionThatHoldsTheText() {
        #expect(QRCode("plaza:pay:12345678")?.version == 2)
        #expect(QRCode(String(repeating: "x", count: 213))?.version == 10)
        #expect(QRCode(String(repeating: "x", count: 214)) == nil)
    }

    @Test func anSVGDrawsEveryDarkModuleInsideAQuietZone() throws {
        let code = try #require(QRCode("plaza:pay:00000001"))
        let svg = code.svg(scale: 4)
        #expect(svg.hasPrefix("<svg") && svg.contains("viewBox=\"0 0 33 33\""))
        let drawn = svg.split(separator: "h").dropFirst().map { Int($0.prefix { $0.isNumber }) ?? 0 }.reduce(0, +)
        #expect(drawn == code.modules.filter { $0 }.count)
    }
}
