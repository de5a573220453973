import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Sends finished spans to an OpenTelemetry collector over OTLP/HTTP (protobuf, `POST <endpoint>/v1/traces`), in
/// batches: every `interval`, or as soon as `batchSize` wait; and the metrics of `/metrics` every `metricsInterval`
/// (`POST <endpoint>/v1/metrics`, see `OTLPMetrics`). At most `capacity` wait; past that new spans are dropped
/// and counted (a collector that is down never grows Plaza's memory). A batch the collector refuses is dropped too:
/// traces are for looking, not for keeping.
final class OTLPExporter: Service, Sendable {
    let tracesURL: String
    let metricsURL: String
    /// The Prometheus text of the application's metrics (`PlazaMetrics.render`).
    let metricsText: @Sendable () -> String
    let metricsInterval: Duration
    /// When the cumulative series began (this process's start), in nanoseconds since 1970.
    private let started = ActiveSpan.now()
    /// The resource's attributes (`service.name` and the like).
    let resource: [(String, SpanValue)]
    let logger: Logger
    let interval: Duration = .seconds(1)
    static let batchSize = 512
    static let capacity = 8_192

    private let waiting = Mutex<(spans: [FinishedSpan], dropped: Int)>(([], 0))
    private let cue = Mutex<AsyncStream<Void>.Continuation?>(nil)

    init(
        endpoint: URL,
        serviceName: String,
        metricsInterval: Duration = .seconds(10),
        metricsText: @escaping @Sendable () -> String,
        logger: Logger
    ) {
        let base =
            endpoint.absoluteString.hasSuffix("/")
            ? String(endpoint.absoluteString.dropLast()) : endpoint.absoluteString
        tracesURL = base + "/v1/traces"
        metricsURL = base + "/v1/metrics"
        self.metricsText = metricsText
        self.metricsInterval = metricsInterval
        resource = [
            ("service.name", .string(serviceName)), ("telemetry.sdk.name", "plaza"),
            ("telemetry.sdk.language", "swift"),
            ("host.name", .string(ProcessInfo.processInfo.hostName)),
            ("process.pid", .int(Int(ProcessInfo.processInfo.processIdentifier))),
        ]
        self.logger = logger
    }

    /// Queues a finished span.
    func add(_ span: FinishedSpan) {
        let full = waiting.withLock { waiting -> Bool in
            guard waiting.spans.count < Self.capacity else {
                waiting.dropped += 1
                return false
            }
            waiting.spans.append(span)
            return waiting.spans.count == Self.batchSize
        }
        if full { _ = cue.withLock { $0?.yield() } }
    }

    /// Spans dropped because the queue was full.
    var dropped: Int { waiting.withLock(\.dropped) }

    func run() async throws {
        let (nudges, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        cue.withLock { $0 = continuation }
        let ticker = Task { [interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield()
            }
        }
        let metrics = Task { [metricsInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: metricsInterval)
                if !Task.isCancelled { await self.sendMetrics() }
            }
        }
        await cancelWhenGracefulShutdown {
            for await _ in nudges { await self.flush() }
        }
        ticker.cancel()
        metrics.cancel()
        cue.withLock { $0 = nil }
        // Shutting down: what was recorded last still goes out (each post has its own timeout).
        await flush()
        await sendMetrics()
    }

    /// Sends the metrics as they stand now.
    func sendMetrics() async {
        let body = OTLPMetrics.encode(
            OTLPMetrics.families(metricsText()),
            resource: resource,
            start: started,
            now: ActiveSpan.now()
        )
        await post(body, to: metricsURL, what: "metrics")
    }

    /// Sends everything waiting, a batch at a time.
    func flush() async {
        while true {
            let batch = waiting.withLock { waiting -> [FinishedSpan] in
                let batch = Array(waiting.spans.prefix(Self.batchSize))
                waiting.spans.removeFirst(batch.count)
                return batch
            }
            guard !batch.isEmpty else { return }
            await send(batch)
        }
    }

    private func send(_ spans: [FinishedSpan]) async {
        await post(Self.encode(spans, resource: resource), to: tracesURL, what: "\(spans.count) spans")
    }

    /// Posts one OTLP body. Not traced itself (`execute`, not `traced`): its spans would be exported in turn.
    private func post(_ body: [UInt8], to url: String, what: String) async {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-protobuf")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if response.status.code >= 300 {
                logger.warning("telemetry refused", metadata: ["status": "\(response.status.code)", "sent": "\(what)"])
            }
        } catch {
            logger.warning("telemetry not sent", metadata: ["error": "\(error)", "sent": "\(what)"])
        }
    }

    /// An `ExportTraceServiceRequest` (opentelemetry/proto/collector/trace/v1) holding `spans` under one resource.
    static func encode(_ spans: [FinishedSpan], resource: [(String, SpanValue)]) -> [UInt8] {
        var request = ProtobufWriter()
        request.message(1) { resourceSpans in
            resourceSpans.message(1) { resourceMessage in
                for (key, value) in resource { resourceMessage.message(1) { attribute(&$0, key, value) } }
            }
            resourceSpans.message(2) { scopeSpans in
                scopeSpans.message(1) { scope in scope.string(1, "plaza") }
                for span in spans { scopeSpans.message(2) { encode(span, into: &$0) } }
            }
        }
        return request.bytes
    }

    private static func encode(_ span: FinishedSpan, into writer: inout ProtobufWriter) {
        writer.bytes(1, bigEndian(span.context.traceHigh) + bigEndian(span.context.traceLow))
        writer.bytes(2, bigEndian(span.context.spanID))
        if let parent = span.parentSpanID { writer.bytes(4, bigEndian(parent)) }
        writer.string(5, span.name)
        writer.varint(6, UInt64(span.kind.rawValue))
        writer.fixed64(7, span.startNanos)
        writer.fixed64(8, span.endNanos)
        for (key, value) in span.attributes { writer.message(9) { attribute(&$0, key, value) } }
        if let error = span.error {
            writer.message(15) { status in
                status.string(2, error)
                status.varint(3, 2)  // STATUS_CODE_ERROR
            }
        }
    }

    static func attribute(_ writer: inout ProtobufWriter, _ key: String, _ value: SpanValue) {
        writer.string(1, key)
        writer.message(2) { any in
            switch value {
            case .string(let text): any.string(1, text)
            case .bool(let flag): any.varint(2, flag ? 1 : 0)
            case .int(let number): any.varint(3, UInt64(bitPattern: Int64(number)))
            }
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
    }
}
