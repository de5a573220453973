import Foundation

/// A place on a template's page for the shopper's photo: a box in millimetres from the trim's top-left corner, as the
/// text labels are placed. The photo always covers the whole box; what shows of it is the shopper's choice.
public struct CardPhotoSlot: Codable, Sendable, Hashable {
    public var id: String
    public var page: CardPage
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// A required slot without a photo keeps the design from being ordered (preflight `photo_missing`).
    public var required: Bool

    public init(
        id: String,
        page: CardPage,
        x: Double,
        y: Double,
        width: Double,
        height: Double,
        required: Bool = false
    ) {
        self.id = id
        self.page = page
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.required = required
    }

    public var box: CardRect { CardRect(x: x, y: y, width: width, height: height) }

    /// `required` may be left out (false).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            page: try container.decode(CardPage.self, forKey: .page),
            x: try container.decode(Double.self, forKey: .x),
            y: try container.decode(Double.self, forKey: .y),
            width: try container.decode(Double.self, forKey: .width),
            height: try container.decode(Double.self, forKey: .height),
            required: try container.decodeIfPresent(Bool.self, forKey: .required) ?? false
        )
    }

    /// What the editor and preflight call the slot: its id in words ("couple-photo" → "Couple photo").
    public var title: String {
        let words = id.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

/// A shopper's photo in a slot: their own upload (`POST /v1/media`, JPEG or PNG) and how it sits in the slot.
///
/// At `zoom` 1 the photo covers the slot exactly along one side (cover fit: nothing of the slot stays empty); 2 shows
/// half as much of it, twice as large. `panX` and `panY` say which part shows where the photo is larger than the slot:
/// -1 its left (top) edge, 0 its middle, 1 its right (bottom) edge. Any zoom ≥ 1 and pan within -1…1 covers the slot.
public struct CardPhotoPlacement: Codable, Sendable, Hashable {
    public var slotId: String
    public var mediaId: UUID
    public var zoom: Double
    public var panX: Double
    public var panY: Double
    /// The upload's size in pixels, as answered (ignored in requests).
    public var width: Int?
    public var height: Int?

    public init(
        slotId: String,
        mediaId: UUID,
        zoom: Double = 1,
        panX: Double = 0,
        panY: Double = 0,
        width: Int? = nil,
        height: Int? = nil
    ) {
        self.slotId = slotId
        self.mediaId = mediaId
        self.zoom = zoom
        self.panX = panX
        self.panY = panY
        self.width = width
        self.height = height
    }

    /// Only `slotId` and `mediaId` are required: zoom 1, centred.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            slotId: try container.decode(String.self, forKey: .slotId),
            mediaId: try container.decode(UUID.self, forKey: .mediaId),
            zoom: try container.decodeIfPresent(Double.self, forKey: .zoom) ?? 1,
            panX: try container.decodeIfPresent(Double.self, forKey: .panX) ?? 0,
            panY: try container.decodeIfPresent(Double.self, forKey: .panY) ?? 0,
            width: try container.decodeIfPresent(Int.self, forKey: .width),
            height: try container.decodeIfPresent(Int.self, forKey: .height)
        )
    }
}
