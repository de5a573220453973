import Foundation
import Hummingbird
import PlazaCore

/// The console's Backups panel: the last copy of the database (time, size, check), the copies kept, and how to
/// restore one.
extension AdminPages {
    struct BackupRow: Sendable {
        var name: String
        var at: String
        var datetime: String
        var size: String
        var check: String
        var failed: Bool
    }

    struct BackupFailureView: Sendable {
        var at: String
        var datetime: String
        var reason: String
    }

    struct BackupsPage: Sendable {
        var shell: Shell
        var tabs: Tabs
        /// Backups are on: the rest applies.
        var on: Bool
        var postgres: Bool
        var folder: String?
        var database: String?
        var every: String
        var keep: String
        var last: BackupRow?
        var next: String?
        var failure: BackupFailureView?
        var rows: [BackupRow]
    }

    @Sendable func backups(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let list = admin.backupList()
        let reader = context.reader
        let rows = list.items.map { item in
            BackupRow(
                name: item.name,
                at: reader.full(item.createdAt),
                datetime: reader.machine(item.createdAt),
                size: Self.size(item.bytes, reader),
                check: item.check == .ok ? say("Checked: ok") : say("Check failed"),
                failed: item.check == .failed
            )
        }
        let newest = list.items.first(where: { $0.check == .ok })
        let next = list.every.flatMap { every in newest.map { $0.createdAt.addingTimeInterval(TimeInterval(every)) } }
        let model = BackupsPage(
            shell: Shell(title: say("Backups"), context: context),
            tabs: Tabs(backups: true),
            on: list.every != nil,
            postgres: admin.database.engine == .postgres,
            folder: admin.backups?.folder.path,
            database: admin.backups?.source,
            every: list.every.map { Self.interval(TimeInterval($0), reader) } ?? "",
            keep: list.keep.map { reader.count($0, "count.copy") } ?? "",
            last: rows.first,
            next: next.map { reader.upcoming(max($0, Date())) },
            failure: list.lastFailure.map {
                BackupFailureView(at: reader.full($0.at), datetime: reader.machine($0.at), reason: $0.reason)
            },
            rows: rows
        )
        return renderer.render("admin/backups", model)
    }

    /// "6 hours", "90 minutes", "day", "2 days": the interval after "every".
    static func interval(_ seconds: TimeInterval, _ reader: Reader) -> String {
        let whole = Int(seconds.rounded())
        for (unit, key) in [(86_400, "count.every.day"), (3_600, "count.every.hour"), (60, "count.every.minute")]
        where whole >= unit && whole % unit == 0 {
            return reader.count(whole / unit, key)
        }
        return reader.count(whole, "count.every.second")
    }

    /// "812 KB", "1.4 MB": a file's size.
    static func size(_ bytes: Int64, _ reader: Reader) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1_000, unit < units.count - 1 {
            value /= 1_000
            unit += 1
        }
        let digits = unit == 0 || value >= 100 ? 0 : 1
        return "\(value.formatted(.number.precision(.fractionLength(digits)).locale(reader.locale))) \(units[unit])"
    }
}
