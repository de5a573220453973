import Foundation
import PlazaServer

/// What the end of a chaos run found, domain by domain: writes acknowledged but missing (lost), made twice or made
/// though refused (doubled), and requests never answered even after every retry.
struct ChaosTally: Sendable {
    var lost = 0
    var doubled = 0
    var unanswered = 0

    /// Every transfer's answers against the journal: one key, one answer; every acknowledged transfer there exactly
    /// once; none there that was never acknowledged.
    mutating func checkTransfers(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let counts = try await services.transferEntryCounts()
        let answers = run.answers.get()
        var acknowledged: Set<UUID> = []
        for (index, work) in run.work.enumerated() {
            guard case .transfer(let operation) = work else { continue }
            let answers = answers[index]
            let made = Set(answers.compactMap { if case .made(let id) = $0 { id } else { nil } })
            if answers.contains(.unanswered) {
                unanswered += 1
                say("unanswered transfer \(operation.key)")
            }
            if made.count > 1 || (made.count == 1 && answers.contains { if case .refused = $0 { true } else { false } })
            {
                doubled += 1
                say("doubled transfer \(operation.key): one key, different answers \(answers)")
            }
            for id in made {
                acknowledged.insert(id)
                switch counts[id] ?? 0 {
                case 0:
                    lost += 1
                    say("lost transfer \(id)")
                case 1: break
                default:
                    doubled += 1
                    say("doubled transfer \(id)")
                }
            }
        }
        for (id, _) in counts where !acknowledged.contains(id) {
            doubled += 1
            say("doubled transfer \(id): in the journal, but never acknowledged")
        }
    }
}
