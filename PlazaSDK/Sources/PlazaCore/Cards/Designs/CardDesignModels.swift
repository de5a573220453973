import Foundation

/// A shopper's change to one label: only what the template lets them change.
public struct CardLabelEdit: Codable, Sendable, Hashable {
    public var id: String
    public var text: String?
    public var font: String?
    public var size: Double?
    public var colour: String?
    public var x: Double?
    public var y: Double?

    public init(
        id: String,
        text: String? = nil,
        font: String? = nil,
        size: Double? = nil,
        colour: String? = nil,
        x: Double? = nil,
        y: Double? = nil
    ) {
        self.id = id
        self.text = text
        self.font = font
        self.size = size
        self.colour = colour
        self.x = x
        self.y = y
    }
}

/// `POST /v1/cards/designs`, and `PATCH …/{id}` (every field optional there; `templateId` ignored).
public struct CardDesignRequest: Codable, Sendable, Hashable {
    public var templateId: UUID?
    public var colour: String?
    public var name: String?
    public var labels: [CardLabelEdit]?
    /// The photos in the template's slots; when given, they replace the design's photos (an empty list takes them out).
    public var photos: [CardPhotoPlacement]?

    public init(
        templateId: UUID? = nil,
        colour: String? = nil,
        name: String? = nil,
        labels: [CardLabelEdit]? = nil,
        photos: [CardPhotoPlacement]? = nil
    ) {
        self.templateId = templateId
        self.colour = colour
        self.name = name
        self.labels = labels
        self.photos = photos
    }
}

/// A label as the design sets it: the template's defaults with the shopper's changes.
public struct CardLabelValue: Codable, Sendable, Hashable {
    public var id: String
    public var page: CardPage
    public var text: String
    public var font: String
    public var size: Double
    public var colour: String
    public var x: Double
    public var y: Double

    public init(
        id: String,
        page: CardPage,
        text: String,
        font: String,
        size: Double,
        colour: String,
        x: Double,
        y: Double
    ) {
        self.id = id
        self.page = page
        self.text = text
        self.font = font
        self.size = size
        self.colour = colour
        self.x = x
        self.y = y
    }
}

/// How bad a preflight finding is: an `error` keeps the design from being ordered; a `warning` only says so.
public enum CardFindingSeverity: String, Codable, Sendable, Hashable {
    case error, warning
}

/// What preflight checks.
public enum CardFindingCode: String, Codable, Sendable, Hashable, CaseIterable {
    /// More text than the label's box or line limit holds (error).
    case textOverflow = "text_overflow"
    /// Text reaches past the trim into the 3 mm the printer cuts off (error).
    case textInBleed = "text_in_bleed"
    /// Text inside the trim but nearer its edge than the safe margin, where a cut may graze it (warning).
    case outsideSafeArea = "outside_safe_area"
    /// Type below 6 pt, hard to read in print (warning).
    case fontTooSmall = "font_too_small"
    /// A label the design needs is empty (warning).
    case requiredLabelEmpty = "required_label_empty"
    /// A character the chosen font does not have prints as an empty box (warning).
    case missingGlyphs = "missing_glyphs"
    /// A required photo slot has no photo (error).
    case photoMissing = "photo_missing"
    /// The part of the photo that shows has fewer than 250 pixels per inch of the slot: it prints soft (warning).
    case photoLowResolution = "photo_low_resolution"
}

/// One preflight finding: what, how bad, where, and what to do.
public struct CardFinding: Codable, Sendable, Hashable {
    public var code: CardFindingCode
    public var severity: CardFindingSeverity
    public var page: CardPage
    /// The label's id, or the photo slot's for the photo findings.
    public var labelId: String
    public var message: String

    public init(code: CardFindingCode, severity: CardFindingSeverity, page: CardPage, labelId: String, message: String)
    {
        self.code = code
        self.severity = severity
        self.page = page
        self.labelId = labelId
        self.message = message
    }
}

/// A saved design: a template version, a colour, the labels as set, and what preflight says.
public struct CardDesign: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var templateId: UUID
    public var templateName: String
    public var templateVersion: Int
    public var colour: String
    public var labels: [CardLabelValue]
    /// The shopper's photos, one per filled slot, with each upload's pixel size.
    public var photos: [CardPhotoPlacement]
    public var findings: [CardFinding]
    /// No `error` finding.
    public var orderable: Bool
    /// An order of it went to production: it can no longer change.
    public var locked: Bool
    public var previewUrl: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID,
        name: String,
        templateId: UUID,
        templateName: String,
        templateVersion: Int,
        colour: String,
        labels: [CardLabelValue],
        photos: [CardPhotoPlacement] = [],
        findings: [CardFinding],
        orderable: Bool,
        locked: Bool,
        previewUrl: String,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.templateId = templateId
        self.templateName = templateName
        self.templateVersion = templateVersion
        self.colour = colour
        self.labels = labels
        self.photos = photos
        self.findings = findings
        self.orderable = orderable
        self.locked = locked
        self.previewUrl = previewUrl
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/cards/designs/{id}/layout`: every line of every label where the print puts it, and the findings.
public struct CardDesignLayout: Codable, Sendable, Hashable {
    public var pages: [PageLayout]
    public var findings: [CardFinding]
    public var orderable: Bool

    public init(pages: [PageLayout], findings: [CardFinding], orderable: Bool) {
        self.pages = pages
        self.findings = findings
        self.orderable = orderable
    }

    /// One side of the card.
    public struct PageLayout: Codable, Sendable, Hashable {
        public var page: CardPage
        public var labels: [LabelLayout]

        public init(page: CardPage, labels: [LabelLayout]) {
            self.page = page
            self.labels = labels
        }
    }

    /// One label's lines (x, y of each line's left end on its baseline, mm) and whether it overflows.
    public struct LabelLayout: Codable, Sendable, Hashable {
        public var id: String
        public var lines: [Line]
        public var overflow: Bool

        public init(id: String, lines: [Line], overflow: Bool) {
            self.id = id
            self.lines = lines
            self.overflow = overflow
        }
    }

    /// A line of text: where its baseline starts and how wide it is, in millimetres.
    public struct Line: Codable, Sendable, Hashable {
        public var text: String
        public var x: Double
        public var y: Double
        public var width: Double

        public init(text: String, x: Double, y: Double, width: Double) {
            self.text = text
            self.x = x
            self.y = y
            self.width = width
        }
    }
}
