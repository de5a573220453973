import Foundation
import Testing

@testable import PlazaServer

/// The hot paths' UUIDs read and write exactly what Foundation's do, and random ones are version 4.
@Suite struct FastUUIDTests {
    @Test func textAndParsingAgreeWithFoundation() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(id.text == id.uuidString)
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.uuidString.lowercased()) == id)
        }
    }

    @Test func refusesWhatFoundationRefuses() {
        let id = UUID().uuidString
        for bad in [
            "", String(id.dropLast()), id + "0", id.replacingOccurrences(of: "-", with: ""), "G" + id.dropFirst(),
            String(id.prefix(8)) + "0" + id.dropFirst(9), id.replacingOccurrences(of: "-", with: "_"),
        ] {
            #expect(UUID(text: bad) == nil)
            #expect(UUID(uuidString: bad) == nil)
        }
    }

    @Test func randomOnesAreVersionFourAndDiffer() {
        let ids = (0..<1_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.uuidString
            #expect(Array(text)[14] == "4")
            #expect("89AB".contains(Array(text)[19]))
        }
    }

    @Test func timeOrderedOnesSortByTimeAsTextAndAreVersionSeven() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = (0..<500).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 0.002)) }
        #expect(ids.map(\.uuidString) == ids.map(\.uuidString).sorted())
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = Array(id.uuidString)
            #expect(text[14] == "7")
            #expect("89AB".contains(text[19]))
        }
        // The first 48 bits are the milliseconds.
        #expect(
            ids[0].uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
                == String(1_800_000_000_000, radix: 16).leftPadded(to: 12)
        )
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
