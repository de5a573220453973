import Foundation
import Synchronization

/// What a span says of itself: OpenTelemetry's kinds, attribute values and status.
enum SpanKind: Int, Sendable {
    case `internal` = 1
    case server = 2
    case client = 3
}

enum SpanValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int)
    case bool(Bool)

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
}

/// A finished span, as the exporter sends it.
struct FinishedSpan: Sendable {
    var context: TraceContext
    var parentSpanID: UInt64?
    var name: String
    var kind: SpanKind
    var startNanos: UInt64
    var endNanos: UInt64
    var attributes: [(String, SpanValue)]
    /// OpenTelemetry's status: unset unless something failed (`error` with its message).
    var error: String?
}

/// A span being recorded: what the traced work adds while it runs (attributes, a failure, a better name).
final class ActiveSpan: Sendable {
    let context: TraceContext
    let parentSpanID: UInt64?
    let kind: SpanKind
    private let startNanos: UInt64
    private let state: Mutex<(name: String, attributes: [(String, SpanValue)], error: String?)>

    init(name: String, kind: SpanKind, context: TraceContext, parent: UInt64?, attributes: [(String, SpanValue)]) {
        self.context = context
        self.parentSpanID = parent
        self.kind = kind
        startNanos = Self.now()
        state = Mutex((name, attributes, nil))
    }

    func set(_ key: String, _ value: SpanValue) {
        state.withLock { $0.attributes.append((key, value)) }
    }

    func rename(_ name: String) {
        state.withLock { $0.name = name }
    }

    func fail(_ message: String) {
        state.withLock { $0.error = message }
    }

    func finish() -> FinishedSpan {
        let (name, attributes, error) = state.withLock { ($0.name, $0.attributes, $0.error) }
        return FinishedSpan(
            context: context,
            parentSpanID: parentSpanID,
            name: name,
            kind: kind,
            startNanos: startNanos,
            endNanos: max(startNanos, Self.now()),
            attributes: attributes,
            error: error
        )
    }

    /// Nanoseconds since 1970, as OTLP wants.
    static func now() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000_000))
    }
}
