import Foundation
import PlazaCore
import PlazaMedia

/// A small deterministic PDF 1.7 writer for print files: the same pages give the same bytes (no timestamp unless one is
/// given, /ID from a SHA-256 of the content), fonts embedded as subsets, boxes for the print shop.
public struct PDFWriter: Sendable {
    /// Document information; all optional except the producer.
    public struct Info: Sendable, Hashable {
        public var title: String?
        public var author: String?
        public var producer: String
        /// Written only when given, so that rendering twice gives identical files.
        public var creationDate: Date?

        public init(title: String? = nil, author: String? = nil, producer: String = "Plaza", creationDate: Date? = nil)
        {
            self.title = title
            self.author = author
            self.producer = producer
            self.creationDate = creationDate
        }
    }

    public var info: Info
    public private(set) var pages: [PDFCanvas] = []

    public init(info: Info = Info()) {
        self.info = info
    }

    public mutating func add(_ page: PDFCanvas) {
        pages.append(page)
    }

    /// The finished file. Throws for a font that forbids embedding, two fonts under one id, or no pages.
    public func render() throws -> Data {
        guard !pages.isEmpty else { throw PDFError.noPages }
        let (fonts, images) = try resources()
        // Object numbers: 1 catalog, 2 page tree, 3 info, then a page and its content per page, five per font, one per image.
        let firstFont = 4 + pages.count * 2
        let firstImage = firstFont + fonts.count * 5
        let fontNames = Dictionary(uniqueKeysWithValues: fonts.enumerated().map { ($1.font.id, "F\($0 + 1)") })
        let imageNames = Dictionary(uniqueKeysWithValues: images.enumerated().map { ($1, "Im\($0 + 1)") })
        let graphicsStates = PDFGraphicsStates(pages)
        var resources = "<<"
        if !fonts.isEmpty {
            resources += " /Font <<" + fonts.indices.map { " /F\($0 + 1) \(firstFont + $0 * 5) 0 R" }.joined() + " >>"
        }
        if !images.isEmpty {
            resources += " /XObject <<" + images.indices.map { " /Im\($0 + 1) \(firstImage + $0) 0 R" }.joined() + " >>"
        }
        resources += graphicsStates.resourceEntry + " >>"

        var objects: [PDFObject] = [
            PDFObject("<< /Type /Catalog /Pages 2 0 R >>"),
            PDFObject(
                "<< /Type /Pages /Kids [" + pages.indices.map { "\(4 + $0 * 2) 0 R" }.joined(separator: " ")
                    + "] /Count \(pages.count) >>"
            ),
            PDFObject(infoDictionary),
        ]
        for (index, page) in pages.enumerated() {
            let geometry = PDFPageGeometry(page)
            let media = PDFPageGeometry.array(geometry.mediaBox)
            objects.append(
                PDFObject(
                    "<< /Type /Page /Parent 2 0 R /MediaBox \(media) /BleedBox \(media) /TrimBox \(PDFPageGeometry.array(geometry.trimBox))"
                        + " /Resources \(resources) /Contents \(5 + index * 2) 0 R >>"
                )
            )
            let content = PDFContentStream.build(
                page,
                fonts: fontNames,
                images: imageNames,
                graphicsStates: graphicsStates
            )
            objects.append(PDFObject.flate("<<", stream: Array(content.utf8)))
        }
        for (index, usage) in fonts.enumerated() {
            objects += try PDFFontEmbedder.objects(usage, first: firstFont + index * 5)
        }
        // Images come compressed already (JPEG, or pixels deflated once when the image was made): written as they are.
        for image in images {
            objects.append(PDFObject("<< " + image.dictionary, stream: [UInt8](image.bytes)))
        }
        return Data(PDFFileAssembler.assemble(objects))
    }

    /// Fonts (sorted by id, so resource names do not depend on drawing order) with the glyphs used, and images in order of
    /// first use, each once.
    private func resources() throws -> ([PDFFontUsage], [PDFImage]) {
        var fonts: [String: PDFFontUsage] = [:]
        var images: [PDFImage] = []
        var seenImages = Set<PDFImage>()
        for page in pages {
            for operation in page.operations {
                switch operation {
                case .text(let line, let font, _, _):
                    var usage = fonts[font.id] ?? PDFFontUsage(font: font)
                    guard usage.isSameFont(as: font) else { throw PDFError.conflictingFonts(fontID: font.id) }
                    usage.record(line)
                    fonts[font.id] = usage
                case .image(let image, _), .clippedImage(let image, _, _, _):
                    if seenImages.insert(image).inserted { images.append(image) }
                case .path, .art:
                    break
                }
            }
        }
        return (fonts.keys.sorted().compactMap { fonts[$0] }, images)
    }

    private var infoDictionary: String {
        var entries = "<< /Producer \(PDFSyntax.textString(info.producer))"
        if let title = info.title { entries += " /Title \(PDFSyntax.textString(title))" }
        if let author = info.author { entries += " /Author \(PDFSyntax.textString(author))" }
        if let date = info.creationDate { entries += " /CreationDate \(PDFSyntax.date(date))" }
        return entries + " >>"
    }
}
