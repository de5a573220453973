import Foundation
import Testing

@testable import PlazaServer

/// Waiters' time limits end their waits, each its own, shortest first, and a waiter whose turn comes in time gets it.
@Suite struct AsyncLockTests {
    /// (No bound on how long: the whole suite keeps the two cores busy; the order is what counts.)
    @Test func aShorterLimitAfterALongerOneEndsFirstAndTheOtherGetsTheLock() async throws {
        let lock = AsyncLock()
        #expect(await lock.lock())
        let patient = Task { await lock.lock(within: .seconds(120)) }
        try await Task.sleep(for: .milliseconds(50))
        // The lock stays held until the hasty waiter gives up: its own limit ended its wait, not a release.
        let start = ContinuousClock.now
        #expect(await lock.lock(within: .milliseconds(200)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        await lock.unlock()
        #expect(await patient.value)
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
