import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// An OpenTelemetry collector's OTLP/HTTP receiver on loopback: takes `POST /v1/traces` (protobuf) and keeps the
/// spans, read with a small decoder of the wire format (the fields of opentelemetry/proto/trace/v1 it needs).
public final class OTLPReceiver: Sendable {
    public struct Span: Sendable, CustomStringConvertible {
        public var traceID: String
        public var spanID: String
        public var parentSpanID: String
        public var name: String
        public var kind: Int
        public var attributes: [String: String]
        public var description: String { "\(name) [\(spanID) under \(parentSpanID.isEmpty ? "-" : parentSpanID)]" }
    }

    /// A metric's points as received: its kind (`gauge`, `sum`, `histogram`), and per point its attributes and value
    /// (a histogram's: its count).
    public struct Metric: Sendable {
        public var name: String
        public var kind: String
        public var points: [(attributes: [String: String], value: Double)]
    }

    private let received = Mutex<(spans: [Span], resources: [[String: String]], contentTypes: [String])>(([], [], []))
    private let receivedMetrics = Mutex<[Metric]>([])
    public var metrics: [Metric] { receivedMetrics.withLock { $0 } }
    private let server: LoopbackServer

    public var endpoint: URL { URL(string: "http://127.0.0.1:\(server.port)")! }
    public var spans: [Span] { received.withLock(\.spans) }
    public var resources: [[String: String]] { received.withLock(\.resources) }
    public var contentTypes: [String] { received.withLock(\.contentTypes) }

    private init(server: LoopbackServer) {
        self.server = server
    }

    public static func start() async throws -> OTLPReceiver {
        let box = Mutex<OTLPReceiver?>(nil)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard let receiver = box.withLock({ $0 }), request.method == .post,
                ["/v1/traces", "/v1/metrics"].contains(request.uri.path)
            else {
                return Response(status: .notFound)
            }
            let body = try await request.body.collect(upTo: 16 << 20)
            if request.uri.path == "/v1/metrics" {
                receiver.takeMetrics(Array(body.readableBytesView))
            } else {
                receiver.take(Array(body.readableBytesView), contentType: request.headers[.contentType] ?? "")
            }
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
        }
        let server = try await LoopbackServer.start(name: "otlp-receiver", responder: responder)
        let receiver = OTLPReceiver(server: server)
        box.withLock { $0 = receiver }
        return receiver
    }

    public func stop() async {
        await server.stop()
    }

    /// Waits up to `seconds` for spans that `done` accepts.
    public func spans(within seconds: Double = 10, until done: ([Span]) -> Bool) async throws -> [Span] {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let now = spans
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(100))
        }
        return spans
    }

    private func takeMetrics(_ bytes: [UInt8]) {
        var metrics: [Metric] = []
        for resourceMetrics in Wire.fields(bytes, 1) {
            for scopeMetrics in Wire.fields(resourceMetrics, 2) {
                for metric in Wire.fields(scopeMetrics, 2) {
                    let fields = Wire.parse(metric)
                    let name = Wire.string(metric, 1)
                    for (number, kind) in [(5, "gauge"), (7, "sum"), (9, "histogram")] {
                        guard let data = fields.first(where: { $0.number == number })?.bytes else { continue }
                        let points = Wire.fields(data, 1).map { point -> ([String: String], Double) in
                            let parsed = Wire.parse(point)
                            let attributes = Wire.attributes(Wire.fields(point, kind == "histogram" ? 9 : 7))
                            let raw = parsed.first { $0.number == 4 }?.bytes ?? []
                            let bits = raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                            return (attributes, kind == "histogram" ? Double(bits) : Double(bitPattern: bits))
                        }
                        metrics.append(Metric(name: name, kind: kind, points: points))
                    }
                }
            }
        }
        receivedMetrics.withLock { $0 += metrics }
    }

    private func take(_ bytes: [UInt8], contentType: String) {
        var spans: [Span] = []
        var resources: [[String: String]] = []
        for resourceSpans in Wire.fields(bytes, 1) {
            for resource in Wire.fields(resourceSpans, 1) {
                resources.append(Wire.attributes(Wire.fields(resource, 1)))
            }
            for scopeSpans in Wire.fields(resourceSpans, 2) {
                for span in Wire.fields(scopeSpans, 2) { spans.append(Wire.span(span)) }
            }
        }
        received.withLock {
            $0.spans += spans
            $0.resources += resources
            $0.contentTypes.append(contentType)
        }
    }

    /// Protocol Buffers' wire format, read: each field's number and its value's bytes (or number).
    enum Wire {
        struct Field {
            var number: Int
            var varint: UInt64 = 0
            var bytes: [UInt8] = []
        }

        static func parse(_ data: [UInt8]) -> [Field] {
            var fields: [Field] = []
            var index = 0
            func varint() -> UInt64 {
                var value: UInt64 = 0
                var shift: UInt64 = 0
                while index < data.count {
                    let byte = data[index]
                    index += 1
                    value |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                return value
            }
            while index < data.count {
                let key = varint()
                var field = Field(number: Int(key >> 3))
                switch key & 7 {
                case 0: field.varint = varint()
                case 1:
                    field.bytes = Array(data[index..<min(data.count, index + 8)])
                    index += 8
                case 2:
                    let length = Int(varint())
                    field.bytes = Array(data[index..<min(data.count, index + length)])
                    index += length
                case 5: index += 4
                default: return fields
                }
                fields.append(field)
            }
            return fields
        }

        static func fields(_ data: [UInt8], _ number: Int) -> [[UInt8]] {
            parse(data).filter { $0.number == number }.map(\.bytes)
        }

        static func string(_ data: [UInt8], _ number: Int) -> String {
            fields(data, number).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }

        static func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String(format: "%02x", $0) }.joined()
        }

        static func attributes(_ pairs: [[UInt8]]) -> [String: String] {
            var attributes: [String: String] = [:]
            for pair in pairs {
                let key = string(pair, 1)
                guard let value = fields(pair, 2).first, let first = parse(value).first else { continue }
                switch first.number {
                case 1: attributes[key] = String(decoding: first.bytes, as: UTF8.self)
                case 2: attributes[key] = first.varint == 0 ? "false" : "true"
                case 3: attributes[key] = String(Int64(bitPattern: first.varint))
                default: continue
                }
            }
            return attributes
        }

        static func span(_ data: [UInt8]) -> Span {
            let parsed = parse(data)
            return Span(
                traceID: hex(fields(data, 1).first ?? []),
                spanID: hex(fields(data, 2).first ?? []),
                parentSpanID: hex(fields(data, 4).first ?? []),
                name: string(data, 5),
                kind: Int(parsed.first { $0.number == 6 }?.varint ?? 0),
                attributes: attributes(fields(data, 9))
            )
        }
    }
}
