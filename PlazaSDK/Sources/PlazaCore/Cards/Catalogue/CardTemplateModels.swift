import Foundation

/// A card's trimmed size in millimetres (5×7 in is 127 × 177.8).
public struct CardTrim: Codable, Sendable, Hashable {
    public var widthMm: Double
    public var heightMm: Double

    public init(widthMm: Double, heightMm: Double) {
        self.widthMm = widthMm
        self.heightMm = heightMm
    }
}

/// The sides of a card a template can have: the front always, inside and back optional.
public enum CardPage: String, Codable, Sendable, Hashable, CaseIterable {
    case front, inside, back
}

/// Who made a template.
public struct CardDesigner: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String

    public init(username: String, displayName: String) {
        self.username = username
        self.displayName = displayName
    }
}

/// A colour variant of a template: its art per page (URLs of `GET /v1/cards/art/{id}`).
public struct CardColour: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    /// Page → art id.
    public var art: [String: UUID]

    public init(id: String, name: String, art: [String: UUID] = [:]) {
        self.id = id
        self.name = name
        self.art = art
    }
}

/// Where a template stands: a designer's draft, waiting for review, in the catalogue, or sent back.
public enum CardTemplateState: String, Codable, Sendable, Hashable, CaseIterable {
    case draft, submitted, approved, rejected
}

/// What a shopper may change on a label.
public enum CardLabelEditable: String, Codable, Sendable, Hashable, CaseIterable {
    case text, font, size, colour, position
}

/// A text label of a template: its defaults, its box, and what the shopper may change within which bounds.
public struct CardLabelSpec: Codable, Sendable, Hashable {
    public var id: String
    public var page: CardPage
    public var text: String
    public var font: String
    /// Points.
    public var size: Double
    /// `#rrggbb`.
    public var colour: String
    /// The box in millimetres from the trim's top-left corner.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var align: CardTextAlignment
    /// 0: as many as fit.
    public var maxLines: Int
    public var required: Bool
    public var editable: [CardLabelEditable]
    /// The fonts the shopper may pick (the default among them).
    public var fonts: [String]
    /// The colours the shopper may pick (`#rrggbb`).
    public var colours: [String]
    public var minSize: Double
    public var maxSize: Double

    public init(
        id: String,
        page: CardPage,
        text: String,
        font: String,
        size: Double,
        colour: String,
        x: Double,
        y: Double,
        width: Double,
        height: Double,
        align: CardTextAlignment = .center,
        maxLines: Int = 0,
        required: Bool = false,
        editable: [CardLabelEditable] = [.text],
        fonts: [String] = [],
        colours: [String] = [],
        minSize: Double? = nil,
        maxSize: Double? = nil
    ) {
        self.id = id
        self.page = page
        self.text = text
        self.font = font
        self.size = size
        self.colour = colour
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.align = align
        self.maxLines = maxLines
        self.required = required
        self.editable = editable
        self.fonts = fonts.isEmpty ? [font] : fonts
        self.colours = colours.isEmpty ? [colour] : colours
        self.minSize = minSize ?? size
        self.maxSize = maxSize ?? size
    }

    public var box: CardRect { CardRect(x: x, y: y, width: width, height: height) }

    /// Only id, page, text, font, size, colour and the box are required; the rest take the defaults of `init`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let font = try container.decode(String.self, forKey: .font)
        let size = try container.decode(Double.self, forKey: .size)
        let colour = try container.decode(String.self, forKey: .colour)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            page: try container.decode(CardPage.self, forKey: .page),
            text: try container.decode(String.self, forKey: .text),
            font: font,
            size: size,
            colour: colour,
            x: try container.decode(Double.self, forKey: .x),
            y: try container.decode(Double.self, forKey: .y),
            width: try container.decode(Double.self, forKey: .width),
            height: try container.decode(Double.self, forKey: .height),
            align: try container.decodeIfPresent(CardTextAlignment.self, forKey: .align) ?? .center,
            maxLines: try container.decodeIfPresent(Int.self, forKey: .maxLines) ?? 0,
            required: try container.decodeIfPresent(Bool.self, forKey: .required) ?? false,
            editable: try container.decodeIfPresent([CardLabelEditable].self, forKey: .editable) ?? [.text],
            fonts: try container.decodeIfPresent([String].self, forKey: .fonts) ?? [],
            colours: try container.decodeIfPresent([String].self, forKey: .colours) ?? [],
            minSize: try container.decodeIfPresent(Double.self, forKey: .minSize),
            maxSize: try container.decodeIfPresent(Double.self, forKey: .maxSize)
        )
    }

    /// Colours in lower case, the editable list without repeats.
    public var normalized: CardLabelSpec {
        var label = self
        label.colour = colour.lowercased()
        label.colours = colours.map { $0.lowercased() }
        label.editable = CardLabelEditable.allCases.filter(editable.contains)
        return label
    }
}

/// A template in the catalogue's grid.
public struct CardTemplateSummary: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var designer: CardDesigner
    public var categoryId: UUID
    public var subcategoryId: UUID?
    public var colours: [CardColourSummary]
    public var trim: CardTrim
    public var state: CardTemplateState
    /// The front of the first colour, drawn with the template's own text: `GET /v1/cards/templates/{id}/preview.svg`.
    public var previewUrl: String
    /// The cheapest price per card, at the largest quantity tier of the cheapest paper.
    public var fromAmount: Int64?
    public var currency: String?

    public init(
        id: UUID,
        name: String,
        designer: CardDesigner,
        categoryId: UUID,
        subcategoryId: UUID?,
        colours: [CardColourSummary],
        trim: CardTrim,
        state: CardTemplateState,
        previewUrl: String,
        fromAmount: Int64?,
        currency: String?
    ) {
        self.id = id
        self.name = name
        self.designer = designer
        self.categoryId = categoryId
        self.subcategoryId = subcategoryId
        self.colours = colours
        self.trim = trim
        self.state = state
        self.previewUrl = previewUrl
        self.fromAmount = fromAmount
        self.currency = currency
    }
}

/// A colour variant by name, for lists.
public struct CardColourSummary: Codable, Sendable, Hashable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// A template with everything a personalizer needs: its pages, colours with their art, labels and papers.
public struct CardTemplate: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var designer: CardDesigner
    public var categoryId: UUID
    public var subcategoryId: UUID?
    public var state: CardTemplateState
    /// Raised by each change the designer saves; a design pins the version it was made from.
    public var version: Int
    public var trim: CardTrim
    public var pages: [CardPage]
    public var colours: [CardColour]
    public var labels: [CardLabelSpec]
    /// Where the shopper's photos go (none: a card of text alone).
    public var photoSlots: [CardPhotoSlot]
    public var paperTypes: [CardPaperType]
    /// Why an admin sent it back.
    public var rejectionReason: String?

    public init(
        id: UUID,
        name: String,
        designer: CardDesigner,
        categoryId: UUID,
        subcategoryId: UUID?,
        state: CardTemplateState,
        version: Int,
        trim: CardTrim,
        pages: [CardPage],
        colours: [CardColour],
        labels: [CardLabelSpec],
        photoSlots: [CardPhotoSlot] = [],
        paperTypes: [CardPaperType],
        rejectionReason: String? = nil
    ) {
        self.id = id
        self.name = name
        self.designer = designer
        self.categoryId = categoryId
        self.subcategoryId = subcategoryId
        self.state = state
        self.version = version
        self.trim = trim
        self.pages = pages
        self.colours = colours
        self.labels = labels
        self.photoSlots = photoSlots
        self.paperTypes = paperTypes
        self.rejectionReason = rejectionReason
    }
}

/// What a version of a template fixes for the designs made from it: size, pages, colours with art, labels.
public struct CardTemplateSpec: Codable, Sendable, Hashable {
    public var trim: CardTrim
    public var pages: [CardPage]
    public var colours: [CardColour]
    public var labels: [CardLabelSpec]
    public var photoSlots: [CardPhotoSlot]

    public init(
        trim: CardTrim,
        pages: [CardPage],
        colours: [CardColour],
        labels: [CardLabelSpec],
        photoSlots: [CardPhotoSlot] = []
    ) {
        self.trim = trim
        self.pages = pages
        self.colours = colours
        self.labels = labels
        self.photoSlots = photoSlots
    }

    /// Versions saved before photo slots have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            trim: try container.decode(CardTrim.self, forKey: .trim),
            pages: try container.decode([CardPage].self, forKey: .pages),
            colours: try container.decode([CardColour].self, forKey: .colours),
            labels: try container.decode([CardLabelSpec].self, forKey: .labels),
            photoSlots: try container.decodeIfPresent([CardPhotoSlot].self, forKey: .photoSlots) ?? []
        )
    }
}

/// `POST /v1/cards/templates` (a designer): a new draft; `PATCH …/{id}` takes the same fields.
public struct CardTemplateRequest: Codable, Sendable, Hashable {
    public var name: String
    public var categoryId: UUID
    public var subcategoryId: UUID?
    public var trim: CardTrim
    public var pages: [CardPage]
    public var colours: [CardColourRequest]
    public var labels: [CardLabelSpec]
    /// Optional: none when left out.
    public var photoSlots: [CardPhotoSlot]
    public var paperTypeIds: [UUID]

    public init(
        name: String,
        categoryId: UUID,
        subcategoryId: UUID? = nil,
        trim: CardTrim,
        pages: [CardPage],
        colours: [CardColourRequest],
        labels: [CardLabelSpec],
        photoSlots: [CardPhotoSlot] = [],
        paperTypeIds: [UUID]
    ) {
        self.name = name
        self.categoryId = categoryId
        self.subcategoryId = subcategoryId
        self.trim = trim
        self.pages = pages
        self.colours = colours
        self.labels = labels
        self.photoSlots = photoSlots
        self.paperTypeIds = paperTypeIds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            categoryId: try container.decode(UUID.self, forKey: .categoryId),
            subcategoryId: try container.decodeIfPresent(UUID.self, forKey: .subcategoryId),
            trim: try container.decode(CardTrim.self, forKey: .trim),
            pages: try container.decode([CardPage].self, forKey: .pages),
            colours: try container.decode([CardColourRequest].self, forKey: .colours),
            labels: try container.decode([CardLabelSpec].self, forKey: .labels),
            photoSlots: try container.decodeIfPresent([CardPhotoSlot].self, forKey: .photoSlots) ?? [],
            paperTypeIds: try container.decode([UUID].self, forKey: .paperTypeIds)
        )
    }
}

/// A colour variant as a designer sends it: its name and the art of each page (`POST /v1/cards/art` ids).
public struct CardColourRequest: Codable, Sendable, Hashable {
    public var id: String?
    public var name: String
    public var art: [String: UUID]

    public init(id: String? = nil, name: String, art: [String: UUID]) {
        self.id = id
        self.name = name
        self.art = art
    }
}

/// `POST /v1/cards/art`'s answer: the art's id to name in a template, its size (SVG: view box units; PNG: pixels).
public struct CardArtUpload: Codable, Sendable, Hashable {
    public var id: UUID
    public var contentType: String
    public var width: Double
    public var height: Double
    public var url: String

    public init(id: UUID, contentType: String, width: Double, height: Double, url: String) {
        self.id = id
        self.contentType = contentType
        self.width = width
        self.height = height
        self.url = url
    }
}

extension CardLabelSpec {
    /// What the editor and preflight call the label: its id in words ("names" → "Names", "rsvp-line" → "Rsvp line").
    public var title: String {
        let words = id.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
