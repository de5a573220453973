import Logging
import Synchronization

/// Log lines kept in memory, for tests that assert what an operator would read.
final class CapturedLog: Sendable {
    private let events = Mutex<[LogEvent]>([])

    /// Every line so far, in order.
    var lines: [LogEvent] {
        events.withLock { $0 }
    }

    /// The lines whose message is `message`.
    func said(_ message: String) -> [LogEvent] {
        lines.filter { $0.message.description == message }
    }

    /// A handler that appends here.
    func handler() -> Handler {
        Handler(sink: self)
    }

    /// A logger at `trace` that appends here.
    func logger(label: String) -> Logger {
        Logger(label: label) { _ in self.handler() }
    }

    fileprivate func append(_ event: LogEvent) {
        events.withLock { $0.append(event) }
    }

    /// Appends each line to its log, the handler's own metadata merged under the line's.
    struct Handler: LogHandler {
        let sink: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var event = event
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, line in line }
            sink.append(event)
        }
    }
}
