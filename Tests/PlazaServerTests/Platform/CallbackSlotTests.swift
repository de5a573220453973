import PlazaServer
import Synchronization
import Testing

@Suite struct CallbackSlotTests {
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    /// Stored straight in a `Mutex`, a closure grew by two thunks per use; invoked after a million uses it would
    /// have recursed two million frames deep and crashed. In its slot it is called a million times, flatly.
    @Test func aCallbackCalledAMillionTimesStaysOneCallDeep() {
        let slot = CallbackSlot<Int>()
        let counter = Counter()
        slot.set { number in counter.value.withLock { $0 += number } }
        for _ in 0..<1_000_000 { slot(1) }
        #expect(counter.value.withLock { $0 } == 1_000_000)
    }

    @Test func theNewestCallbackWinsAndNoneIsQuiet() {
        let slot = CallbackSlot<Int>()
        let counter = Counter()
        slot(5)
        #expect(!slot.isSet)
        slot.set { number in counter.value.withLock { $0 += number } }
        slot.set { number in counter.value.withLock { $0 += 10 * number } }
        slot(2)
        #expect(counter.value.withLock { $0 } == 20)
    }
}
