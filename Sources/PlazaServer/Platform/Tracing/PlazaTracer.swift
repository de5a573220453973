import Foundation
import HTTPTypes
import PlazaCore

/// Plaza's tracer: spans for requests, SQL statements, outbound calls and background work, exported over OTLP when
/// `PLAZA_OTEL_ENDPOINT` is set.
///
/// Work finds it in its task (`PlazaTracer.current`, set for each request by `TracingMiddleware` and for each
/// background service), so stores, senders and jobs need none handed to them, and several applications in one
/// process (the tests) each trace to their own receiver. Without a tracer a span costs one task-local read.
final class PlazaTracer: Sendable {
    /// The tracer of the work running in this task, if tracing is on.
    @TaskLocal static var current: PlazaTracer?
    /// The innermost span of this task: the parent of the next one.
    @TaskLocal static var active: ActiveSpan?

    let exporter: OTLPExporter

    init(exporter: OTLPExporter) {
        self.exporter = exporter
    }

    /// The trace context to carry along with work handed to later (an outbox row), if this task is traced.
    static var currentContext: TraceContext? { current == nil ? nil : active?.context }

    /// Runs `body` in a span of the current tracer (or plainly, when there is none).
    static func span<T>(
        _ name: String,
        kind: SpanKind = .internal,
        parent: TraceContext? = nil,
        attributes: [(String, SpanValue)] = [],
        _ body: (ActiveSpan?) async throws -> T
    ) async rethrows -> T {
        guard let tracer = current else { return try await body(nil) }
        return try await tracer.span(name, kind: kind, parent: parent, attributes: attributes, body)
    }

    /// Runs `body` in a span: a child of `parent` when given (a context carried from elsewhere), else of this task's
    /// active span, else the first of a new trace.
    func span<T>(
        _ name: String,
        kind: SpanKind = .internal,
        parent: TraceContext? = nil,
        attributes: [(String, SpanValue)] = [],
        _ body: (ActiveSpan?) async throws -> T
    ) async rethrows -> T {
        let above = parent ?? Self.active?.context
        let span = ActiveSpan(
            name: name,
            kind: kind,
            context: above?.child() ?? .root(),
            parent: above?.spanID,
            attributes: attributes
        )
        do {
            let result = try await Self.$active.withValue(span) { try await body(span) }
            exporter.add(span.finish())
            return result
        } catch {
            span.fail((error as? PlazaError).map { "\($0.status.code) \($0.code.rawValue)" } ?? "\(type(of: error))")
            exporter.add(span.finish())
            throw error
        }
    }
}
