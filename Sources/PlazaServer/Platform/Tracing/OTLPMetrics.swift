import Foundation

/// Plaza's metrics as OTLP (`ExportMetricsServiceRequest`, opentelemetry/proto/collector/metrics/v1), read from the
/// Prometheus text the registry renders for `/metrics`: one source of truth, two wire forms. Counters become
/// cumulative monotonic sums, gauges gauges, histograms explicit-bucket histograms (Prometheus's cumulative `le`
/// buckets turned into per-bucket counts). Names stay as `/metrics` has them, so dashboards read either.
enum OTLPMetrics {
    struct Sample {
        var labels: [(String, String)]
        var value: Double
    }

    struct Family {
        var name: String
        var type: String
        var help = ""
        var samples: [(suffix: String, sample: Sample)] = []
    }

    /// The families of a Prometheus text exposition, in order.
    static func families(_ text: String) -> [Family] {
        var families: [Family] = []
        var index: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                guard parts.count == 2 else { continue }
                index[String(parts[0])] = families.count
                families.append(Family(name: String(parts[0]), type: String(parts[1])))
            } else if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst(7)
                guard let space = rest.firstIndex(of: " "), let at = index[String(rest[..<space])] else { continue }
                families[at].help = String(rest[rest.index(after: space)...])
            } else if !line.hasPrefix("#"), let (name, sample) = parse(line) {
                // A sample belongs to the family whose name it starts with (`x_bucket`, `x_sum`, `x_count` to `x`).
                for suffix in ["", "_bucket", "_sum", "_count", "_total"] where name.hasSuffix(suffix) {
                    let family = String(name.dropLast(suffix.count))
                    if let at = index[family] {
                        families[at].samples.append((suffix, sample))
                        break
                    }
                }
            }
        }
        return families
    }

    /// `name{a="b",c="d"} 1.5` (label values unescaped).
    static func parse(_ line: Substring) -> (String, Sample)? {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
            return nil
        }
        let head = line[..<space]
        guard let brace = head.firstIndex(of: "{") else { return (String(head), Sample(labels: [], value: value)) }
        var labels: [(String, String)] = []
        var rest = head[head.index(after: brace)...].dropLast()  // without the closing brace
        while let equals = rest.firstIndex(of: "=") {
            let key = String(rest[..<equals]).trimmingCharacters(in: CharacterSet(charactersIn: ", "))
            var cursor = rest.index(after: equals)
            guard cursor < rest.endIndex, rest[cursor] == "\"" else { break }
            cursor = rest.index(after: cursor)
            var text = ""
            while cursor < rest.endIndex, rest[cursor] != "\"" {
                if rest[cursor] == "\\", rest.index(after: cursor) < rest.endIndex {
                    cursor = rest.index(after: cursor)
                    text.append(rest[cursor] == "n" ? "\n" : rest[cursor])
                } else {
                    text.append(rest[cursor])
                }
                cursor = rest.index(after: cursor)
            }
            labels.append((key, text))
            rest = cursor < rest.endIndex ? rest[rest.index(after: cursor)...] : rest[rest.endIndex...]
        }
        return (String(head[..<brace]), Sample(labels: labels, value: value))
    }

    /// The request body: every family under one resource, with `start` as each cumulative series' start.
    static func encode(
        _ families: [Family],
        resource: [(String, SpanValue)],
        start: UInt64,
        now: UInt64
    ) -> [UInt8] {
        var request = ProtobufWriter()
        request.message(1) { resourceMetrics in
            resourceMetrics.message(1) { resourceMessage in
                for (key, value) in resource { resourceMessage.message(1) { OTLPExporter.attribute(&$0, key, value) } }
            }
            resourceMetrics.message(2) { scopeMetrics in
                scopeMetrics.message(1) { $0.string(1, "plaza") }
                for family in families where !family.samples.isEmpty {
                    scopeMetrics.message(2) { encode(family, into: &$0, start: start, now: now) }
                }
            }
        }
        return request.bytes
    }

    private static func encode(_ family: Family, into metric: inout ProtobufWriter, start: UInt64, now: UInt64) {
        metric.string(1, family.name)
        if !family.help.isEmpty { metric.string(2, family.help) }
        switch family.type {
        case "counter":
            metric.message(7) { sum in
                for (_, sample) in family.samples { sum.message(1) { point(&$0, sample, start: start, now: now) } }
                sum.varint(2, 2)  // AGGREGATION_TEMPORALITY_CUMULATIVE
                sum.varint(3, 1)  // monotonic
            }
        case "histogram":
            metric.message(9) { histogram in
                for series in histogramSeries(family) {
                    histogram.message(1) { point in
                        for (key, value) in series.labels {
                            point.message(9) { OTLPExporter.attribute(&$0, key, .string(value)) }
                        }
                        point.fixed64(2, start)
                        point.fixed64(3, now)
                        point.fixed64(4, UInt64(max(0, series.count)))
                        point.fixed64(5, series.sum.bitPattern)
                        point.packedFixed64(6, series.buckets.map { UInt64(max(0, $0)) })
                        point.packedFixed64(7, series.bounds.map(\.bitPattern))
                    }
                }
                histogram.varint(2, 2)
            }
        default:
            metric.message(5) { gauge in
                for (_, sample) in family.samples { gauge.message(1) { point(&$0, sample, start: start, now: now) } }
            }
        }
    }

    private static func point(_ writer: inout ProtobufWriter, _ sample: Sample, start: UInt64, now: UInt64) {
        for (key, value) in sample.labels { writer.message(7) { OTLPExporter.attribute(&$0, key, .string(value)) } }
        writer.fixed64(2, start)
        writer.fixed64(3, now)
        writer.fixed64(4, sample.value.bitPattern)  // as_double
    }

    struct HistogramSeries {
        var labels: [(String, String)]
        var bounds: [Double] = []
        var buckets: [Double] = []
        var count: Double = 0
        var sum: Double = 0
    }

    /// A histogram family's series, by their labels other than `le`: bounds without +Inf, and counts per bucket.
    static func histogramSeries(_ family: Family) -> [HistogramSeries] {
        var order: [String] = []
        var series: [String: HistogramSeries] = [:]
        var cumulative: [String: [(Double, Double)]] = [:]
        for (suffix, sample) in family.samples {
            let labels = sample.labels.filter { $0.0 != "le" }
            let key = labels.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
            if series[key] == nil {
                order.append(key)
                series[key] = HistogramSeries(labels: labels)
            }
            switch suffix {
            case "_bucket":
                let bound = sample.labels.first { $0.0 == "le" }.map {
                    $0.1 == "+Inf" ? .infinity : Double($0.1) ?? .infinity
                }
                cumulative[key, default: []].append((bound ?? .infinity, sample.value))
            case "_sum": series[key]?.sum = sample.value
            case "_count": series[key]?.count = sample.value
            default: continue
            }
        }
        return order.compactMap { key in
            guard var one = series[key] else { return nil }
            let sorted = (cumulative[key] ?? []).sorted { $0.0 < $1.0 }
            var previous = 0.0
            for (bound, total) in sorted {
                if bound.isFinite { one.bounds.append(bound) }
                one.buckets.append(total - previous)
                previous = total
            }
            if sorted.last.map({ $0.0.isFinite }) ?? true { one.buckets.append(max(0, one.count - previous)) }
            return one
        }
    }
}
