import Foundation

/// A span's place in a trace, as W3C Trace Context carries it (`traceparent: 00-<trace id>-<span id>-01`): in the
/// headers of a call, and in the outbox beside what a request queued, so that a push sent later joins the request's
/// trace.
struct TraceContext: Sendable, Equatable {
    var traceHigh: UInt64
    var traceLow: UInt64
    var spanID: UInt64

    /// A new trace's first span.
    static func root() -> TraceContext {
        TraceContext(traceHigh: .random(in: 1...UInt64.max), traceLow: .random(in: 1...UInt64.max), spanID: newSpanID())
    }

    /// A span of the same trace, under this one.
    func child() -> TraceContext {
        TraceContext(traceHigh: traceHigh, traceLow: traceLow, spanID: Self.newSpanID())
    }

    static func newSpanID() -> UInt64 { .random(in: 1...UInt64.max) }

    var traceID: String { Self.hex(traceHigh) + Self.hex(traceLow) }
    var traceparent: String { "00-\(traceID)-\(Self.hex(spanID))-01" }

    /// Reads a `traceparent` value; nil for anything malformed (a bad header starts a new trace, it is no error).
    init?(traceparent text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[1].count == 32, parts[2].count == 16,
            let high = UInt64(parts[1].prefix(16), radix: 16), let low = UInt64(parts[1].suffix(16), radix: 16),
            let span = UInt64(parts[2], radix: 16), high | low != 0, span != 0
        else { return nil }
        self.init(traceHigh: high, traceLow: low, spanID: span)
    }

    init(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
