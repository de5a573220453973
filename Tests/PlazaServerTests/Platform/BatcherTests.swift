import Foundation
import HTTPTypes
import PlazaCore
import Synchronization
import Testing

@testable import PlazaServer

/// A batch that never answers (a database connection gone mid-transaction) fails its jobs with a retryable 503 and
/// frees its lane, so the jobs after it still run (issue 36).
@Suite struct BatcherTests {
    @Test func aHungBatchAnswersItsJobsAndTheNextBatchRuns() async throws {
        let batcher = Batcher<Int, Int>(lanes: 1, deadline: .milliseconds(300))
        let hang = Mutex(true)
        let run: Batcher<Int, Int>.Runner = { jobs in
            let first = hang.withLock { hanging in
                defer { hanging = false }
                return hanging
            }
            if first {
                // Never returns in time (and ignores cancellation, as a hung database call may).
                try? await Task.sleep(for: .seconds(3_600))
            }
            return jobs.map { .success($0 * 10) }
        }
        await #expect {
            try await batcher.submit(1, run: run)
        } throws: { error in
            (error as? PlazaError)?.status == .serviceUnavailable && (error as? PlazaError)?.code == .unavailable
        }
        #expect(try await batcher.submit(2, run: run) == 20, "the lane was given back")
    }

    @Test func anAnswerInTimeIsTheBatchsOwn() async throws {
        let batcher = Batcher<Int, Int>(lanes: 2, deadline: .seconds(30))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 1...20 { group.addTask { try await batcher.submit(n) { jobs in jobs.map { .success($0 + 1) } } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(2...21))
    }
}
