import PlazaCore

/// Why uploaded art was refused. `message` is written for the designer: it says what to change in the design tool.
public enum CardArtError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More than `CardArt.maximumBytes`.
    case tooLarge(bytes: Int)
    /// More than `CardArt.maximumSegments` path elements.
    case tooManySegments
    /// Elements nested deeper than `CardArt.maximumNesting`.
    case nestedTooDeeply
    /// Not well-formed XML (or not UTF-8); `line` is 1-based.
    case malformedXML(line: Int, reason: String)
    /// A DOCTYPE with an internal subset, which could declare entities (the "billion laughs" attack).
    case entityDeclarations
    /// The root element is not `svg`.
    case notSVG(root: String)
    /// An `svg` inside the `svg`.
    case nestedSVG
    /// Neither a usable `viewBox` nor an absolute width and height.
    case missingSize
    case text
    case image
    /// `use`, or `symbol` outside `defs`.
    case reusedShapes
    /// A fill or stroke referring to a gradient or pattern (`url(#...)`).
    case gradient
    case filter
    case mask
    case clipPath
    /// `marker-start`, `marker-mid` or `marker-end`.
    case markers
    case foreignObject
    /// A `script` element or an `on...` event attribute.
    case script
    /// A `style` element with CSS in it.
    case stylesheet
    /// An `href` or `url(...)` pointing outside the file.
    case externalReference(String)
    case animation
    case unsupportedElement(String)
    case invalidPathData(String)
    case invalidColor(String)
    case invalidValue(attribute: String, value: String)
    /// A number too large (or infinite) for the model.
    case numberOutOfRange

    public var description: String { message }

    /// A sentence for the designer, naming the fix.
    public var message: String {
        switch self {
        case .tooLarge(let bytes):
            return
                "The SVG file is too large (\(bytes / 1_048_576) MB; the limit is 20 MB): simplify the art, or upload a PNG."
        case .tooManySegments:
            return
                "The art has too many path points (more than 100,000): simplify the paths in your design tool, or upload a PNG."
        case .nestedTooDeeply:
            return "The art nests groups more than 50 levels deep: ungroup some layers in your design tool."
        case .malformedXML(let line, let reason):
            return
                "The file is not valid SVG (line \(line): \(reason)): export it again from your design tool as plain SVG, UTF-8."
        case .entityDeclarations:
            return
                "The file declares its own XML entities (a DOCTYPE with an internal subset), which is refused for safety: export plain SVG."
        case .notSVG(let root):
            return "The file is not an SVG image (its root element is <\(root)>): upload an SVG or a PNG."
        case .nestedSVG: return "Nested <svg> elements are not supported: flatten or ungroup the embedded drawing."
        case .missingSize:
            return
                "The art needs a viewBox, or a width and height in px, mm, cm, pt, pc or in: set the document size and export again."
        case .text:
            return
                "Text in the art is not supported: convert text to outlines (paths) in your design tool, or use a label."
        case .image: return "Embedded or linked images are not supported in SVG art: upload the image as a PNG instead."
        case .reusedShapes:
            return
                "Clones and symbols (<use>, <symbol>) are not supported: unlink clones / expand symbols into plain paths before export."
        case .gradient: return "Gradients and patterns are not supported yet: use flat colours, or upload a PNG."
        case .filter:
            return "Filters (blur, shadows and other effects) are not supported: remove them, or upload a PNG."
        case .mask: return "Masks are not supported: apply the mask to the paths in your design tool, or upload a PNG."
        case .clipPath:
            return
                "Clipping paths are not supported: release the clip or intersect the paths in your design tool, or upload a PNG."
        case .markers:
            return
                "Line markers (arrowheads) are not supported: convert the stroke to a path (Stroke to Path / Outline Stroke)."
        case .foreignObject: return "Embedded HTML (<foreignObject>) is not allowed in card art: remove it."
        case .script: return "Scripts and event handlers are not allowed in card art: remove them and export plain SVG."
        case .stylesheet:
            return
                "CSS style sheets (<style>) are not supported: export with presentation attributes or inline styles instead of internal CSS."
        case .externalReference(let target):
            return
                "The art refers to something outside the file (\(Self.clipped(target))): embed nothing external, use only plain shapes."
        case .animation: return "Animations are not supported in card art: remove them."
        case .unsupportedElement(let name):
            return "The SVG element <\(name)> is not supported: convert it to plain paths, or upload a PNG."
        case .invalidPathData(let reason):
            return "A path in the art has invalid data (\(reason)): export the file again from your design tool."
        case .invalidColor(let value):
            return
                "The colour '\(Self.clipped(value))' is not supported: use #rrggbb, rgb(...), or a basic colour name."
        case .invalidValue(let attribute, let value):
            return
                "The value '\(Self.clipped(value))' of \(attribute) is not supported: export the file again from your design tool."
        case .numberOutOfRange:
            return "The art has coordinates too large to print: scale the drawing down in your design tool."
        }
    }

    /// Keeps hostile or huge values from bloating a message shown to people.
    private static func clipped(_ value: String) -> String {
        value.count <= 60 ? value : String(value.prefix(57)) + "..."
    }
}
