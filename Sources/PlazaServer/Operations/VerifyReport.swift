import Foundation

/// What `plaza verify` found: how many invariants it checked and each one broken.
public struct VerifyReport: Sendable, CustomStringConvertible {
    /// The invariants checked (every `VerifyKind`).
    public var checks: Int
    /// Sorted by kind, then id; empty when everything holds.
    public var findings: [VerifyFinding]

    public init(checks: Int, findings: [VerifyFinding]) {
        self.checks = checks
        self.findings = findings.sorted {
            ($0.kind.rawValue, $0.id, $0.message) < ($1.kind.rawValue, $1.id, $1.message)
        }
    }

    /// One line per finding, then the summary (`verify: 10 checks, 2 problems`).
    public var description: String {
        let summary =
            findings.isEmpty
            ? "verify: \(checks) checks, everything holds"
            : "verify: \(checks) checks, \(findings.count) problem\(findings.count == 1 ? "" : "s")"
        return (findings.map(\.description) + [summary]).joined(separator: "\n")
    }
}
