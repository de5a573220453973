import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore
import PlazaMedia
import PlazaPDF

/// A receipt as a PDF to download or share: a till roll's 80 mm width, as long as its lines, set in the sans font
/// the card shop embeds (so every letter prints, whatever the reader's system has).
struct ReceiptPDF: Sendable {
    /// One line: text on the left, an amount on the right (either may be empty).
    struct Line: Sendable {
        var left: String
        var right: String = ""
        var bold = false
        var muted = false
    }

    let font: CardFont
    static let width = 80.0
    static let margin = 6.0

    /// The sans font of the server's resources, read once.
    static let shared: ReceiptPDF? = {
        guard
            let url = Bundle.module.url(
                forResource: "sans",
                withExtension: "ttf",
                subdirectory: "Resources/Public/fonts"
            ),
            let data = try? Data(contentsOf: url),
            let font = try? CardFont(id: "sans", data: data)
        else { return nil }
        return ReceiptPDF(font: font)
    }()

    /// The receipt's lines as a person reads them, in `reader`'s language and money (the reader's words rather than
    /// the page's: the API's PDF has a reader too).
    static func lines(_ receipt: Receipt, reader: Reader) -> [Line] {
        let money = { (amount: Int64) in reader.money(amount, receipt.currency) }
        let words = reader.words
        var lines = [Line(left: receipt.business.name, bold: true)]
        if let address = receipt.address { lines.append(Line(left: address, muted: true)) }
        if let taxId = receipt.taxId { lines.append(Line(left: taxId, muted: true)) }
        lines.append(Line(left: title(receipt, words: words), muted: true))
        lines.append(Line(left: reader.full(receipt.paidAt), muted: true))
        lines.append(Line(left: ""))
        for item in receipt.items {
            let quantity = item.quantity == 1 ? "" : "\(item.quantity) × "
            lines.append(Line(left: quantity + item.description, right: money(item.unitAmount * Int64(item.quantity))))
        }
        if let discount = receipt.discount, let subtotal = receipt.subtotal {
            lines.append(Line(left: words.say("Before the coupon"), right: money(subtotal)))
            let coupon = words.say("Coupon: {title}", ["title": discount.title])
            lines.append(Line(left: coupon, right: "−" + money(discount.amount)))
        }
        if receipt.tip > 0 { lines.append(Line(left: words.say("Tip"), right: money(receipt.tip))) }
        lines.append(Line(left: words.say("Total"), right: money(receipt.amount), bold: true))
        if let tax = receipt.tax {
            let rate = tax.rate.formatted(.number.precision(.fractionLength(0...2)).locale(reader.locale))
            lines.append(
                Line(left: words.say("Includes {rate} % tax", ["rate": rate]), right: money(tax.amount), muted: true)
            )
        }
        for refund in receipt.refunds ?? [] {
            let when = reader.when(refund.createdAt)
            let said =
                refund.reason.map { words.say("Refunded {when}: {reason}", ["when": when, "reason": $0]) }
                ?? words.say("Refunded {when}", ["when": when])
            lines.append(Line(left: said, right: "−" + money(refund.amount)))
        }
        lines.append(Line(left: ""))
        lines.append(Line(left: words.say("Paid by {name} with Plaza.", ["name": receipt.customer.name]), muted: true))
        return lines
    }

    /// "Receipt R-1234" in `words`' language: the PDF's first line and its title.
    static func title(_ receipt: Receipt, words: Catalogue.Words) -> String {
        words.say("Receipt {reference}", ["reference": receipt.reference])
    }

    /// The PDF of `lines`; a long text wraps inside its column.
    func render(_ lines: [Line], title: String) throws -> Data {
        let size = 9.0
        let lineHeight = CardUnits.millimetres(fromPoints: size * 1.35)
        let column = Self.width - 2 * Self.margin
        // Lay out first (a wrapped line takes more room), then size the page to what was laid out.
        var placed: [(CardTextLayout, PDFColor)] = []
        var y = Self.margin
        for line in lines {
            let colour = line.muted ? PDFColor(red: 0.36, green: 0.4, blue: 0.39) : PDFColor.black
            let amountWidth = line.right.isEmpty ? 0 : column * 0.34
            let left = CardTypesetter.layout(
                CardTextLabel(
                    text: line.left,
                    font: font,
                    size: line.bold ? size + 1.5 : size,
                    box: CardRect(x: Self.margin, y: y, width: column - amountWidth, height: 200)
                )
            )
            placed.append((left, colour))
            if !line.right.isEmpty {
                let right = CardTypesetter.layout(
                    CardTextLabel(
                        text: line.right,
                        font: font,
                        size: line.bold ? size + 1.5 : size,
                        box: CardRect(x: Self.margin + column - amountWidth, y: y, width: amountWidth, height: 20),
                        alignment: .right,
                        maxLines: 1
                    )
                )
                placed.append((right, colour))
            }
            y += lineHeight * Double(max(1, left.lines.count)) + (line.bold ? lineHeight * 0.3 : 0)
        }
        var canvas = PDFCanvas(trimWidth: Self.width, trimHeight: y + Self.margin, bleed: 0)
        for (layout, colour) in placed { try canvas.draw(layout, font: font, color: colour) }
        var writer = PDFWriter(info: .init(title: title, producer: "Plaza"))
        writer.add(canvas)
        return try writer.render()
    }
}

extension WalletService {
    /// A paid charge's receipt as a PDF, for its customer and the business's people (404 for anyone else).
    func receiptPDF(_ identity: Identity, id: UUID, reader: Reader) async throws -> Response {
        let receipt = try await receipt(identity, id: id)
        guard let printer = ReceiptPDF.shared else {
            throw PlazaError(
                .serviceUnavailable,
                .unavailable,
                phrase("Receipts cannot be printed now: the font is missing.")
            )
        }
        let title = ReceiptPDF.title(receipt, words: reader.words)
        let pdf = try printer.render(ReceiptPDF.lines(receipt, reader: reader), title: title)
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[.contentDisposition] = "attachment; filename=\"plaza-receipt-\(receipt.reference).pdf\""
        headers[.cacheControl] = "private, no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: pdf)))
    }
}
