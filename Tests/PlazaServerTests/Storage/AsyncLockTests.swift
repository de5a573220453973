import Foundation
import Testing

@testable import PlazaServer

/// Waiters' time limits end their waits, each its own, shortest first, and a waiter whose turn comes in time gets it.
@Suite struct AsyncLockTests {
    @Test func aShorterLimitAfterALongerOneEndsFirstAndTheOtherGetsTheLock() async throws {
        let lock = AsyncLock()
        #expect(await lock.lock())
        let start = ContinuousClock.now
        let patient = Task { await lock.lock(within: .seconds(3)) }
        try await Task.sleep(for: .milliseconds(50))
        let hasty = Task { (await lock.lock(within: .milliseconds(200)), ContinuousClock.now - start) }
        let (gotIt, waited) = await hasty.value
        #expect(!gotIt)
        #expect(waited >= .milliseconds(200) && waited < .milliseconds(1_500), "\(waited)")
        await lock.unlock()
        #expect(await patient.value)
        #expect(ContinuousClock.now - start < .seconds(2))
        await lock.unlock()
        // Free again: taken at once, with or without a limit.
        #expect(await lock.lock(within: .milliseconds(10)))
        await lock.unlock()
    }

    @Test func aWaiterPastItsLimitLeavesTheQueueAndTheNextGetsTheLock() async throws {
        let lock = AsyncLock()
        #expect(await lock.lock())
        let first = Task { await lock.lock(within: .milliseconds(100)) }
        try await Task.sleep(for: .milliseconds(20))
        let second = Task { await lock.lock() }
        #expect(await first.value == false)
        await lock.unlock()
        #expect(await second.value)
        #expect(await lock.waiting == 0)
    }
}
