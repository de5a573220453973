import PlazaCore
import PlazaMedia
import Testing

/// Symbols compared module for module with python-qrcode 8 (`QRCode(version:, error_correction=M, mask_pattern:)`),
/// which generated these fixtures: versions 1, 2, 4, 6, 7 (version information blocks), 10 (16-bit length) and 15 (a
/// loyalty punch token's size: four alignment patterns a row, blocks of two sizes).
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
            text: "plaza:pay:12345678",
            version: 2,
            mask: 3,
            modules: [
                "fe9e3fc151506e934bb75735dba072ec10d507faaafe010f00b76e25ce44221bb4bf0c0ac7c4311bb1a9a9ddebaa052adbc10730fb0056",
                "c5ffa62a7059113ba7cfc5d6757eeb70ed04022cfecb038",
            ].joined()
        ),
        Fixture(
            text: "pay me",
            version: 1,
            mask: 0,
            modules: [
                "fe3bfc15106e96bb7475dbadaec13907faafe00800aa2893ccaaf6addfca3b2cb7748041b7f923f0484bbaab9dd2aeaeadeb04b82fe971",
                "8",
            ].joined()
        ),
        Fixture(
            text: "Plaza QR, version 7, with version information blocks: 0123456789 abcdefghij",
            version: 7,
            mask: 5,
            modules: [
                "fe4d1f6a4bfc15b60e02906ea8453f14bb75e2ab3235dba1b3feafaec13bd440e107faaaaaaaafe0136f1d8d00829b2f9046756b87e5a1",
                "de109029c8bed5c1c73c65fec3774b61ab5dea65ace9ee89cf2bc3df8c90300d792d47d2f530af6240a39a1b766ad5bf19f97576b217c1",
                "16ddb9fc83fc26fb447dbc5be4632a1d2b216adf10d113531edfea9ffaffd18d99d61a9a9ad3f95daf85e0c2ef586464bb2ede909892fa",
                "4306a0833ed85a1c4c89b47092ba95ce2fc5d52518007f35ff8982c514b45d78f34c36d40759b68afcc3fa80544c734c57f91aea262bd0",
                "47c51c8d1eba730ff16fc5d1867262c52e86bf91d63b04e8b065b8cfe9254b74b10",
            ].joined()
        ),
        Fixture(
            text:
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            version: 10,
            mask: 6,
            modules: [
                "feb738bbbbbf3fc17e1146b068906ea147981583cbb74b1ae75777a5dbafbe2bf9f292ec12545f12b07107faaaaaaaaaaafe00e568446b",
                "04009f918f3e7ca74b900893c77777f4b3e980ee0d60f7f728dd2bb06b264de83c19eeeee696e9a988be53ed02c94361f60d62c94b6146",
                "a222202daba75227ca7c204852f9553e5366eca08afc444465be028f0786b04bfc7b187287ca74ddcd7c2c67777f4aef3b66f8d60f7f38",
                "9586a806b264e25bee0e6eee6958499fe3a53ed027fc08bfa0d63e8f1a1044622211d5afffc2bca7da8545d72713e5346fbf99aefc4443",
                "faf8c424186b061f1acd23c07ca6e5a2d4155d77775c65a85fb48d609dc41af9f4306b0c40a3f6c7ceeefc19074d8ede53e783fcdcc35e",
                "0d6468408bacaa22228d4363f42dca7d882287a54f3e53cee7f74e66c4440fac212181b6b061f2add2f437ca6e5d096a1df77775ca9bc7",
                "4f58d609dff25baec706b0c403d2667eeeeff9004af8f1e53e443fb3433ae0d62a9056c3c4622211dbaf3f5ffca7cf85d51573a3e531a2",
                "e863153c4443bf042f1ecc6b054ffee2a5147ca6340",
            ].joined()
        ),
        Fixture(
            text: "hello",
            version: 4,
            mask: 7,
            modules: [
                "fe3888bfc124a7d06e9cb06bb74baaa5dba58d62ec14435907faaaaafe0008350096d3d0d07a60ccc818dc53fdeca658369ffb11128805",
                "ae3a162f91ad946996eed6f37eb0032aaf9f37f9f10890db037ca4116d0e3fdbc2cddeafee4d3fdaf9e58361afcd99ff805685c5bf94e5",
                "6b905251110ba1583f9dd448e7bee9f88da3042bc804feee6bd70",
            ].joined()
        ),
        Fixture(
            text:
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            version: 6,
            mask: 1,
            modules: [
                "fe93e6663fc12ec444506eadb7776bb74b40ccc5dba31c6662ec16cc444507faaaaaaafe005e444400a32f999992f684ccccd87ac11ddd",
                "dab314e44448a2b339999b5949904ccd849c13bdddabb14e74448a3baa0999b5ea59ecccd841d925dddab40b884448a0f285f99b5c0fbc",
                "cccd84588bddddab60b04444883ec81999b4c0f88cccd862c29ddddaa19da44448abbae9199b584f840ccd870c6dddddaa09d844448aff",
                "3e1999fd807acecc447fb87c5daab041a48471aba5a7d99fddd1adccca46ea0edddf2b045e044528febc7998bc8",
            ].joined()
        ),
        Fixture(
            text: [
                "eyJ2IjoxLCJidXNpbmVzc0lkIjoiMTIzIiwicHJvZ3JhbUlkIjoiNDU2In0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "AAAAAAAAAA.Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZ",
                "m9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZ",
            ].joined(),
            version: 15,
            mask: 3,
            modules: [
                "fe9060271ff13fc303fc16298882de4bfdc1506e899901d1a6486302bb75376bbef9e7fe9315dba4c11fde697e5383aec1283bc79d871f",
                "037107faaaaaaaaaaaaaaaafe01df5f11c694503f300b71896fa11cbe7b482586eeb35392f72d790415287fd0420d5e4494b5d52e3f58e",
                "ca240754ee30fec24f93d7cfa592bbe04774f5e381f39472723c26f864142bae6fc9e5a386988902d36b3478ee5ff4a7c7196c7d464262",
                "0e5bb38e075d69c246f451a49263144da8b132aaad1d241e18f950646ec625271a641e8590ca576b2b0e3b18249769be3f667848ce1b8c",
                "a4de9c74f244d448bd8aa35f80aafe1a17fac19fb3c7a18c4e381135c6c42abff4ebc9a9abd55ebed11c4512a64c59c7710dff9c9f8c71",
                "fe41e4fc4a6a4c0638c12d8390ad9a092c811d94b12e330dbfac6aa409a0a7ebadd775371c61c6c7aa0159afead7d8e1ac935c6c32d0d9",
                "cc0c0262e55b5c59f6b2c3e96ed5981d3134021ff6c711a41ad94cfa6b9e210c134838d28a7e7717064ba61a9a5a3aadcffe0435083e1b",
                "aff7ec31a61ca432a03e80436bcf6e1dd8f41a50f3c3b6df4882a6c610a2e31841328ab55558ee246a1a876c3abac22558bca458ae3524",
                "358ee2bed7abf3690f9aa07e4f1afbd127a0c654a710faab85a91c62bac7dac144b9fc6c38d1259246fbf6eb7e5b04ff23ebe26bf7e784",
                "d36f379f8184658e5a7c70fcc187dbfe30bc5c382045835db68a9818c9a69c45aa2101232ace927671a9c17e47ce14ca71c6a124778a6e",
                "2de318ef558bdb5f87bb646124d709ea38e54b598e3a4971c3b6a271e2212731c701aef4015a4cfc28a38f8357f130ef69841493792d9b",
                "e46628b58a49ebc75e98082efb12eb471da27c8d42ad7d157fac138905ea53ccb11df3d3a21ea37813efc32d3c5f74ff9ae7bf1acfaf7a",
                "3ebc81fc805a02c64e2b14048c47fb973eb4792a9ad5abd050e951185e44bd2110ba6e4dfe1413e2212f9dd59a56def9eefe8b092eb855",
                "65af2496e1edc30441f882dc893b034bafead404bc91d92fadb30",
            ].joined()
        ),
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
        #expect(QRCode(String(repeating: "x", count: 214))?.version == 11)
        #expect(QRCode(String(repeating: "x", count: 666))?.version == 20)
        #expect(QRCode(String(repeating: "x", count: 667)) == nil)
    }

    @Test func anSVGDrawsEveryDarkModuleInsideAQuietZone() throws {
        let code = try #require(QRCode("plaza:pay:00000001"))
        let svg = code.svg(scale: 4)
        #expect(svg.hasPrefix("<svg") && svg.contains("viewBox=\"0 0 33 33\""))
        let drawn = svg.split(separator: "h").dropFirst().map { Int($0.prefix { $0.isNumber }) ?? 0 }.reduce(0, +)
        #expect(drawn == code.modules.filter { $0 }.count)
    }
}
