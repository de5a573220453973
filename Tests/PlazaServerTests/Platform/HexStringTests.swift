import Crypto
import Foundation
import Testing

@testable import PlazaServer

/// Stored hashes (sessions, codes, idempotency requests) are compared as these strings: the format must not drift.
@Suite struct HexStringTests {
    @Test func lowerCaseTwoDigitsPerByte() {
        #expect([UInt8]([0x00, 0x0f, 0xa0, 0xff, 0x42]).hexString == "000fa0ff42")
        #expect(
            SHA256.hash(data: Data("abc".utf8)).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect([UInt8]().hexString == "")
    }
}
