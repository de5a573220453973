import Foundation
import PlazaCore

/// The files of `PLAZA_BACKUP_DIR`: `plaza-<yyyyMMddTHHmmssZ>.sqlite` for checked copies, `….failed.sqlite` for copies
/// whose integrity check failed, `….sqlite.partial` while one is written. Nothing else in the folder is ever touched.
struct BackupFolder: Sendable {
    let path: String
    /// Good copies kept; failed ones never count against them.
    let keep: Int

    /// One file of the folder that Plaza wrote.
    struct Entry: Sendable, Equatable {
        var name: String
        var createdAt: Date
        var bytes: Int64
        var check: BackupCheck
    }

    static let prefix = "plaza-"

    /// `20261129T015652Z` in UTC.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ number: Int?) -> String { String(format: "%02d", number ?? 0) }
        return String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
            + two(parts.minute) + two(parts.second) + "Z"
    }

    static func date(stamp: Substring) -> Date? {
        let digits = Array(stamp)
        guard digits.count == 16, digits[8] == "T", digits[15] == "Z" else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let text = String(digits[range])
            guard text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
            return Int(text)
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard parts.isValidDate(in: calendar), let date = calendar.date(from: parts) else { return nil }
        // `20261399…` would roll over into another date: only names Plaza wrote count.
        return Self.stamp(date) == String(stamp) ? date : nil
    }

    static func name(_ date: Date, check: BackupCheck = .ok) -> String {
        prefix + stamp(date) + (check == .ok ? ".sqlite" : ".failed.sqlite")
    }

    static func partialName(_ date: Date) -> String { name(date) + ".partial" }

    /// What a name of the folder is, when Plaza wrote it: a copy (checked or failed) or a partial one.
    static func parse(_ name: String) -> (createdAt: Date, check: BackupCheck, partial: Bool)? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        let stamp = rest.prefix(16)
        guard let date = date(stamp: stamp) else { return nil }
        switch rest.dropFirst(16) {
        case ".sqlite": return (date, .ok, false)
        case ".failed.sqlite": return (date, .failed, false)
        // With the files SQLite may keep beside it while checking it.
        case ".sqlite.partial", ".sqlite.partial-wal", ".sqlite.partial-shm", ".sqlite.partial-journal":
            return (date, .ok, true)
        default: return nil
        }
    }

    func url(_ name: String) -> URL { URL(fileURLWithPath: path).appendingPathComponent(name) }

    /// The copies in the folder, newest first (none when it cannot be read).
    func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.compactMap { name -> Entry? in
            guard let parsed = Self.parse(name), !parsed.partial,
                let attributes = try? FileManager.default.attributesOfItem(atPath: url(name).path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { return nil }
            let bytes = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            return Entry(name: name, createdAt: parsed.createdAt, bytes: bytes, check: parsed.check)
        }
        .sorted { ($0.createdAt, $0.check == .ok ? 1 : 0) > ($1.createdAt, $1.check == .ok ? 1 : 0) }
    }

    /// The newest copy that passed its check.
    func newestGood() -> Entry? { entries().first { $0.check == .ok } }

    /// What retention removes: good copies past the `keep` newest; failed copies past the `keep` newest failed ones, or
    /// once a good copy was taken after them (they are there for a person to look at while nothing newer is good). A
    /// failed copy never pushes a good one out.
    func surplus() -> [Entry] {
        let all = entries()
        let good = all.filter { $0.check == .ok }
        let failed = all.filter { $0.check == .failed }
        var remove = Array(good.dropFirst(keep))
        let newestGood = good.first?.createdAt ?? .distantPast
        for (index, entry) in failed.enumerated() where index >= keep || entry.createdAt < newestGood {
            remove.append(entry)
        }
        return remove
    }

    /// Removes what retention lets go; returns the names removed.
    @discardableResult
    func prune() throws -> [String] {
        let remove = surplus()
        for entry in remove { try FileManager.default.removeItem(at: url(entry.name)) }
        return remove.map(\.name)
    }

    /// Removes partial copies a stopped process left behind (never a copy under its final name: those are complete).
    func removePartials() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where Self.parse(name)?.partial == true {
            try? FileManager.default.removeItem(at: url(name))
        }
    }
}
