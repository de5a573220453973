import Foundation
import Logging
import PlazaCore
import PlazaDemo
import PlazaMedia
import PlazaServer

/// `plaza bench cards`: a two-page card (the demo's Olive Sprig: art on the front, text on both pages) rendered over and
/// over: a shopper's change (the edit applied, every label laid out, preflight, the page's SVG), both pages' previews,
/// and the print PDF with its fonts embedded, at one at a time and at every core. Beside it, in the same run, its peer:
/// Chromium printing the same two pages' SVG to PDF (`--print-to-pdf`), as a shop without its own writer would.
public struct CardsBench: Sendable {
    public struct Options: Sendable {
        public var changes = 2_000
        public var prints = 400
        public var chromiumRuns = 8
        public var concurrency = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    var configuration: PlazaConfiguration
    let options: Options

    public init(configuration: PlazaConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
    }

    public func run() async throws -> String {
        try await BenchSetup.withServices(configuration) { services, directory in
            try await measure(services: services, directory: directory)
        }
    }

    private func measure(services: PlazaServices, directory: URL) async throws -> String {
        try await BenchSetup.requireEmpty(services, bench: "cards")
        try await DemoData.seed(services)
        let cards = services.cards
        guard let user = try await AccountStore().user(login: "anna", on: services.database.sql),
            let template = try await cards.catalogue(.init(words: "Olive Sprig"), limit: 1, cursor: nil).items.first
        else { throw CardsBenchError("the demo's Olive Sprig is missing") }
        let anna = Identity(user: user, sessionID: UUID())
        let design = try await cards.createDesign(anna, CardDesignRequest(templateId: template.id))
        let names = ["Mia & Leo", "Carla & Dev", "Ana Lucía & Benedikt", "Sam & Alex", "Jo & Kim"]

        // One change as the editor sends it: applied, laid out, checked, drawn.
        let change = { @Sendable (index: Int) async throws -> Void in
            let view = try await cards.tryOut(
                anna,
                design.id,
                CardDesignRequest(labels: [CardLabelEdit(id: "names", text: names[index % names.count])])
            )
            _ = try await cards.preview(view, page: .front, guides: true, inline: true)
        }
        let view = try await cards.tryOut(anna, design.id, CardDesignRequest())
        let previews = { @Sendable (_: Int) async throws -> Void in
            for page in view.spec.pages { _ = try await cards.preview(view, page: page, guides: false, inline: false) }
        }
        let print = { @Sendable (_: Int) async throws -> Void in _ = try await cards.printPDF(view) }
        for _ in 0..<20 {
            try await change(0)
            try await previews(0)
            try await print(0)
        }
        let cores = max(1, options.concurrency)
        let changeOne = try await LoadMeter(concurrency: 1).run(options.changes / 4, change)
        let changeAll = try await LoadMeter(concurrency: cores).run(options.changes, change)
        let previewAll = try await LoadMeter(concurrency: cores).run(options.changes / 2, previews)
        let printOne = try await LoadMeter(concurrency: 1).run(options.prints / 4, print)
        let printAll = try await LoadMeter(concurrency: cores).run(options.prints, print)
        let pdf = try await cards.printPDF(view)

        // The peer: Chromium printing the same pages (their SVG, fonts inlined) to a PDF of the bleed size.
        var html =
            "<!doctype html><html><head><style>@page{size:\(CardPreviewSVG.number(view.spec.trim.widthMm + 6))mm "
            + "\(CardPreviewSVG.number(view.spec.trim.heightMm + 6))mm;margin:0}body{margin:0}svg{display:block;page-break-after:always}"
        for (id, data) in cards.fonts.files.sorted(by: { $0.key < $1.key }) {
            html +=
                "@font-face{font-family:\"plaza-\(id)\";src:url(data:font/ttf;base64,\(data.base64EncodedString()))}"
        }
        html +=
            ".card-svg{width:100%;height:auto}text{font-kerning:none;font-variant-ligatures:none}</style></head><body>"
        for page in view.spec.pages { html += try await cards.preview(view, page: page, guides: false, inline: true) }
        html += "</body></html>"
        let page = directory.appendingPathComponent("card.html")
        try Data(html.utf8).write(to: page)
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        var peer = "Chromium: not installed (apt-get install chromium)"
        if let chromium {
            let clock = ContinuousClock()
            var times: [Double] = []
            for run in 0..<options.chromiumRuns {
                let out = directory.appendingPathComponent("chromium-\(run).pdf")
                let start = clock.now
                let process = Process()
                process.executableURL = URL(fileURLWithPath: chromium)
                process.arguments = [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    "--print-to-pdf=\(out.path)", page.absoluteString,
                ]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                times.append(LoadMeter.milliseconds(clock.now - start))
            }
            let result = LoadMeter.Result(
                operations: times.count,
                seconds: times.reduce(0, +) / 1_000,
                latencies: times
            )
            peer =
                "Chromium --print-to-pdf of the same two pages: \(Self.rate(result.rate)) PDFs/s, p50 \(Self.ms(result.p50)) ms, "
                + "p99 \(Self.ms(result.p99)) ms (one process per file, \(times.count) runs, one at a time)"
        }
        return [
            "plaza bench cards: the demo's Olive Sprig (\(view.spec.pages.count) pages, \(view.record.labels.count) labels, SVG art), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores",
            "A change (edit, layout, preflight, the page's SVG): \(Self.row(changeOne)) one at a time; \(Self.row(changeAll)) at \(cores)",
            "Both pages' previews (SVG documents): \(Self.row(previewAll)) at \(cores)",
            "Print PDF (\(pdf.count / 1_024) KB, fonts embedded): \(Self.row(printOne)) one at a time; \(Self.row(printAll)) at \(cores)",
            peer,
        ].joined(separator: "\n")
    }

    static func row(_ result: LoadMeter.Result) -> String {
        "\(rate(result.rate))/s, p50 \(ms(result.p50)) ms, p99 \(ms(result.p99)) ms"
    }

    static func rate(_ value: Double) -> String { String(format: "%.1f", value) }
    static func ms(_ value: Double) -> String { String(format: "%.2f", value) }
}

struct CardsBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
