import Foundation

/// The JSON coding every Plaza party uses: camelCase keys, ISO 8601 UTC timestamps.
public enum PlazaJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Accepts whole or fractional seconds (a browser's `toISOString()` sends milliseconds).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseDate(text) { return date }
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected an ISO 8601 date-time such as 2026-11-23T10:00:00Z."
            )
        }
        return decoder
    }

    /// A value as JSON text (a column holding JSON).
    public static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }

    /// A value read back from JSON text.
    public static func value<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decoder().decode(T.self, from: Data(text.utf8))
    }

    /// Hours up to 23, minutes up to 59, seconds up to 60 (a leap second) in the time after the `T`.
    static func clockInRange(_ text: String) -> Bool {
        guard let t = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return true }
        let fields = text[text.index(after: t)...].prefix(8).split(separator: ":").map { Int($0.prefix(2)) ?? 0 }
        let limits = [23, 59, 60]
        return zip(fields, limits).allSatisfy { $0 <= $1 }
    }

    /// An ISO 8601 date-time with a time zone, with or without fractional seconds.
    public static func parseDate(_ text: String) -> Date? {
        if let date = RFC3339.parse(text) { return date }
        // Foundation's parser rolls "12:99" over into the next hour: a clock out of range is no date.
        guard clockInRange(text) else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

extension KeyedDecodingContainer {
    /// An optional field that may be left out but not sent as `null`: the contract gives `null` no meaning there
    /// (leaving the field out keeps what is stored), so a client that sends it learns so instead of being ignored.
    public func decodeUnlessNull<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(
                T.self,
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "null is not accepted here; leave the field out instead."
                )
            )
        }
        return try decode(T.self, forKey: key)
    }
}
