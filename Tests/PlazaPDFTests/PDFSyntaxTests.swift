import Foundation
import Testing

@testable import PlazaPDF

/// Number spelling and hashing: the parts determinism rests on.
@Suite struct PDFSyntaxTests {
    @Test func numbersHaveFourDecimalsAtMostAndNoTrailingZeros() {
        #expect(PDFSyntax.number(0) == "0")
        #expect(PDFSyntax.number(-0.00001) == "0")
        #expect(PDFSyntax.number(1.5) == "1.5")
        #expect(PDFSyntax.number(-3) == "-3")
        #expect(PDFSyntax.number(12.345_67) == "12.3457")
        #expect(PDFSyntax.number(0.0501) == "0.0501")
        #expect(PDFSyntax.number(-0.25) == "-0.25")
        #expect(PDFSyntax.number(1000 / 2048 * 1366, decimals: 3) == "666.992")
        #expect(PDFSyntax.number(.nan) == "0")
    }

    @Test func namesEscapeDelimitersAndSpaces() {
        #expect(PDFSyntax.name("ABCDEF+EBGaramond12-Regular") == "/ABCDEF+EBGaramond12-Regular")
        #expect(PDFSyntax.name("A B/(x)#") == "/A#20B#2F#28x#29#23")
    }

    @Test func textStringsAreUTF16WithAByteOrderMark() {
        #expect(PDFSyntax.textString("Zoë") == "<FEFF005A006F00EB>")
    }

    @Test func datesAreUTC() {
        #expect(PDFSyntax.date(Date(timeIntervalSince1970: 1_800_000_000)) == "(D:20270115080000Z)")
    }

    @Test func sha256MatchesTheFIPSVectors() {
        let hex = { (text: String) in PDFSyntax.hex(PDFDigest.sha256(Array(text.utf8))).lowercased() }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
    }
}
