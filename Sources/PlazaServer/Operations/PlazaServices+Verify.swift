import Foundation
import Logging
import PlazaCore

/// `plaza verify` could not check: the database is not there or not migrated to this Plaza's schema.
public struct VerifyUnavailable: Error, CustomStringConvertible {
    public var description: String
}

extension PlazaServices {
    /// Checks every cross-domain invariant, reading only (safe beside running servers, on either engine).
    ///
    /// The checks are separate statements, so one can see a change another did not (a transfer committed between the
    /// sums of the postings and the read of the balances). What is found is read again after `recheckAfter`, and only
    /// what both reads find is reported: a change in flight settles within it, a broken invariant stays.
    public func verify(recheckAfter pause: Duration = .seconds(2)) async throws -> VerifyReport {
        if let reason = try await Migrator(database: database).unapplied() {
            throw VerifyUnavailable(description: reason)
        }
        let checks = VerifyKind.allCases.count
        let first = try await InvariantCheck.findings(self, on: database.sql)
        guard !first.isEmpty else { return VerifyReport(checks: checks, findings: []) }
        try await Task.sleep(for: pause)
        let again = try await InvariantCheck.findings(self, on: database.sql)
        let seen = Set(first.map { "\($0.kind.rawValue) \($0.id)" })
        return VerifyReport(
            checks: checks,
            findings: Array(Set(again.filter { seen.contains("\($0.kind.rawValue) \($0.id)") }))
        )
    }

    /// The daily run beside the server: every finding logged as an error and, when anything is broken, every admin
    /// alerted (a push or mail per their preferences), linking to the console.
    func verifyAndAlert(recheckAfter pause: Duration = .seconds(2)) async throws {
        let report = try await verify(recheckAfter: pause)
        for finding in report.findings {
            logger.error(
                "invariant broken",
                metadata: [
                    "kind": .string(finding.kind.rawValue), "id": .string(finding.id),
                    "problem": .string(finding.message),
                ]
            )
        }
        guard !report.findings.isEmpty else {
            logger.info("verify: every invariant holds", metadata: ["checks": "\(report.checks)"])
            return
        }
        // Each admin reads it in their language; the findings themselves are the checks' technical English.
        let count = report.findings.count
        let shown = report.findings.prefix(3).map(\.description).joined(separator: "\n")
        let wording = Wording(
            key: count > 3 ? "alert.verify.more" : "alert.verify",
            values: ["findings": shown, "more": String(count - 3)],
            count: count
        )
        try await events.transaction(publishing: { db in
            let admins = try await AccountStore().adminIds(on: db)
            return ((), admins.map { FeedMessage.alert(user: $0, kind: .account, link: "/admin", wording) })
        })
    }
}
