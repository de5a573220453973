import PlazaCore

/// A start tag as the tokenizer read it: the qualified name (`svg`, `inkscape:label`) and its attributes in order, with
/// references already decoded.
struct CardArtXMLElement: Equatable {
    var name: String
    var attributes: [CardArtXMLAttribute]
    var selfClosing: Bool

    /// The part after a namespace prefix (`href` of `xlink:href`).
    var localName: Substring { Self.local(name) }
    /// The namespace prefix, or `nil` for an unprefixed name.
    var prefix: Substring? { Self.prefix(name) }

    /// The value of the unprefixed attribute `name`.
    subscript(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    static func local(_ name: String) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return name[...] }
        return name[name.index(after: colon)...]
    }

    static func prefix(_ name: String) -> Substring? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        return name[..<colon]
    }
}

/// One attribute of a start tag.
struct CardArtXMLAttribute: Equatable {
    var name: String
    var value: String
}
