import Logging
import Synchronization

/// A `LogHandler` that passes lines to another, but says a line repeated more than `RepeatLimiter.limit` times within
/// a second only that often, then once more with how many it left out (`repeated=290`).
///
/// A full disk logged 4,201 "WAL checkpoint failed" warnings and 3,982 "unexpected error" lines in 22 seconds (issue
/// 42): the flood hid everything else. Lines are the same when their level, logger label, file and message are; their
/// metadata (a request id, the error) is not compared, so a flood of failing requests counts as one line.
///
/// The logger's metadata is kept here and handed to `inner` only for a line that is written: swift-log's
/// `StreamLogHandler` renders its metadata whenever it is set, and every request sets its id (5 % of a `/healthz`).
struct RepeatLimitedLogHandler: LogHandler {
    /// Its metadata stays empty (see above).
    private var inner: any LogHandler
    private let label: String
    private let limiter: RepeatLimiter
    var metadata: Logger.Metadata

    /// Wraps `inner`, made for `label`; every handler of the process shares one `limiter`.
    init(wrapping inner: any LogHandler, label: String, limiter: RepeatLimiter) {
        metadata = inner.metadata
        self.inner = inner
        self.inner.metadata = [:]
        self.label = label
        self.limiter = limiter
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        limiter.log(event, label: label, through: inner, metadata: metadata)
    }
}

/// Counts lines per key in windows of a second, for `RepeatLimitedLogHandler`: the first `limit` of a window pass, the
/// rest are counted, and the count is said when the window has ended, at the next line of any key or by a timer
/// armed at the first line left out (so that a flood followed by silence is still counted).
final class RepeatLimiter: Sendable {
    /// What makes two lines the same (metadata is left out on purpose).
    private struct Key: Hashable {
        var level: Logger.Level
        var label: String
        var file: String
        var message: String
    }

    private struct Entry {
        var start: ContinuousClock.Instant
        var count = 1
        var dropped = 0
        /// The last line left out, and the handler to say the count through (without its logger's metadata, such
        /// as the first request's id, which the count is not about).
        var last: LogEvent?
        var handler: (any LogHandler)?

        /// The line that says how many were left out, if any were.
        var summary: Summary? {
            guard dropped > 0, var line = last, let handler else { return nil }
            var metadata = line.metadata ?? [:]
            metadata["repeated"] = .string("\(dropped)")
            line.metadata = metadata
            return Summary(handler: handler, line: line)
        }
    }

    private struct Summary {
        var handler: any LogHandler
        var line: LogEvent
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// When ended windows are next looked for (and the dictionary pruned).
        var nextSweep: ContinuousClock.Instant
        var timerArmed = false
    }

    /// Lines of one key passed per window.
    let limit: Int
    let window: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let flushesByItself: Bool
    private let state: Mutex<State>

    /// `now` and `flushesByItself` are for tests, which move a clock of their own and call `flush()`.
    init(
        limit: Int = 5,
        window: Duration = .seconds(1),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        flushesByItself: Bool = true
    ) {
        self.limit = limit
        self.window = window
        self.now = now
        self.flushesByItself = flushesByItself
        state = Mutex(State(nextSweep: now() + window))
    }

    /// Passes `event` to `handler` unless its key has had `limit` lines in this window; says ended windows' counts
    /// first. `handler` holds no metadata: the logger's `metadata` is given to it only for a line that is written.
    func log(
        _ event: LogEvent,
        label: String,
        through handler: any LogHandler,
        metadata: Logger.Metadata
    ) {
        let key = Key(level: event.level, label: label, file: event.file, message: event.message.description)
        let time = now()
        let (passes, summaries, arm) = state.withLock { state -> (Bool, [Summary], Bool) in
            var due: [Summary] = []
            if time >= state.nextSweep { sweep(&state, at: time, into: &due) }
            guard var entry = state.entries[key] else {
                state.entries[key] = Entry(start: time)
                return (true, due, false)
            }
            if entry.start.duration(to: time) >= window {
                if let summary = entry.summary { due.append(summary) }
                state.entries[key] = Entry(start: time)
                return (true, due, false)
            }
            if entry.count < limit {
                entry.count += 1
                state.entries[key] = entry
                return (true, due, false)
            }
            entry.dropped += 1
            entry.last = event
            if entry.handler == nil { entry.handler = handler }
            state.entries[key] = entry
            let armNow = flushesByItself && !state.timerArmed
            if armNow { state.timerArmed = true }
            return (false, due, armNow)
        }
        for summary in summaries { summary.handler.log(event: summary.line) }
        if passes {
            var handler = handler
            if !metadata.isEmpty { handler.metadata = metadata }
            handler.log(event: event)
        }
        if arm { armTimer() }
    }

    /// Says every count not yet said, ended window or not (at shutdown, and in tests).
    func flush() {
        let summaries = state.withLock { state -> [Summary] in
            var due: [Summary] = []
            sweep(&state, at: nil, into: &due)
            return due
        }
        for summary in summaries { summary.handler.log(event: summary.line) }
    }

    /// Removes the entries whose window has ended at `time` (all of them for `nil`), collecting their counts.
    private func sweep(_ state: inout State, at time: ContinuousClock.Instant?, into summaries: inout [Summary]) {
        for (key, entry) in state.entries where time.map({ entry.start.duration(to: $0) >= window }) ?? true {
            if let summary = entry.summary { summaries.append(summary) }
            state.entries[key] = nil
        }
        if let time { state.nextSweep = time + window }
    }

    /// Says the counts of windows that end while no line comes; again a window later while lines are left out.
    private func armTimer() {
        let window = window
        Task { [self] in
            try? await Task.sleep(for: window)
            let (summaries, again) = state.withLock { state -> ([Summary], Bool) in
                var due: [Summary] = []
                sweep(&state, at: now(), into: &due)
                let counting = state.entries.values.contains { $0.dropped > 0 }
                state.timerArmed = counting
                return (due, counting)
            }
            for summary in summaries { summary.handler.log(event: summary.line) }
            if again { armTimer() }
        }
    }
}
