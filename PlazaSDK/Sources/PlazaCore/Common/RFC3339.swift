import Foundation

/// RFC 3339 date-times (`2026-11-23T10:00:00Z`, `2026-11-23T10:00:00.123+01:00`) read and written by hand:
/// Foundation's ISO 8601 format style costs microseconds per date, and a batch of 1,000 recorded points
/// carries 1,000 of them.
public enum RFC3339 {
    /// The instant `text` names, or nil unless it is a complete RFC 3339 date-time with a zone offset.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Whole seconds in UTC, as `JSONEncoder`'s `.iso8601` writes them: `2026-11-23T10:00:00Z`.
    public static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        write(date) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The 20 bytes of `format(date)`, one at a time.
    public static func write(_ date: Date, _ put: (UInt8) -> Void) {
        let seconds = Int64((date.timeIntervalSince1970).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = width == 4 ? 1_000 : 10
            while divisor > 0 {
                put(UInt8(48 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        put(45)
        digits(month, 2)
        put(45)
        digits(day, 2)
        put(84)
        digits(secondOfDay / 3_600, 2)
        put(58)
        digits(secondOfDay / 60 % 60, 2)
        put(58)
        digits(secondOfDay % 60, 2)
        put(90)
    }

    /// `parse` of UTF-8 bytes (a date inside a request body, read without making a `String` of it).
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        parse(bytes: bytes)
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var position = 0
        func number(_ width: Int) -> Int64? {
            guard position + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<width {
                let byte = bytes[position]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
                position += 1
            }
            return value
        }
        func expect(_ allowed: UInt8...) -> Bool {
            guard position < bytes.count, allowed.contains(bytes[position]) else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2), expect(84, 116),
            let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var fraction = 0.0
        if position < bytes.count, bytes[position] == 46 {
            position += 1
            var scale = 0.1
            let start = position
            while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
                fraction += Double(bytes[position] - 48) * scale
                scale /= 10
                position += 1
            }
            guard position > start else { return nil }
        }
        var offset: Int64 = 0
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case 90, 122:
            position += 1
        case 43, 45:
            let sign: Int64 = bytes[position] == 45 ? -1 : 1
            position += 1
            guard let hours = number(2), expect(58), let minutes = number(2), hours < 24, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 3_600 + minutes * 60)
        default:
            return nil
        }
        guard position == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    static func civil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = count + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
