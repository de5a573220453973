/// One page of a list: every list endpoint answers `{items, nextCursor}`.
///
/// `nextCursor` is opaque; pass it back as `?cursor=` to read on. It is `nil` on the last page.
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Equatable where Item: Equatable {}
