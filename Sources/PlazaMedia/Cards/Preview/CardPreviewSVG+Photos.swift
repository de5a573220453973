import Foundation
import PlazaCore

/// Photos in the preview: the whole picture placed where the print places it, seen through its slot (a nested `<svg>`
/// whose viewport is the slot clips it, with no ids to collide when a page shows several previews inline).
extension CardPreviewSVG {
    /// `href`'s picture stretched to `placed` (card millimetres), only what falls inside `slot` showing.
    public static func photo(href: String, slotId: String, placed: CardRect, slot: CardRect) -> String {
        "<svg data-photo=\"\(escape(slotId))\" x=\"\(number(slot.x))\" y=\"\(number(slot.y))\" width=\"\(number(slot.width))\" "
            + "height=\"\(number(slot.height))\" viewBox=\"\(number(slot.x)) \(number(slot.y)) \(number(slot.width)) "
            + "\(number(slot.height))\" overflow=\"hidden\"><image href=\"\(escape(href))\" x=\"\(number(placed.x))\" "
            + "y=\"\(number(placed.y))\" width=\"\(number(placed.width))\" height=\"\(number(placed.height))\" "
            + "preserveAspectRatio=\"none\"/></svg>"
    }

    /// An empty slot as the editor shows it: shaded, outlined; never printed.
    public static func emptySlot(_ slotId: String, _ slot: CardRect) -> String {
        "<rect data-photo-slot=\"\(escape(slotId))\" x=\"\(number(slot.x))\" y=\"\(number(slot.y))\" "
            + "width=\"\(number(slot.width))\" height=\"\(number(slot.height))\" fill=\"#e9ecef\" stroke=\"#495057\" "
            + "stroke-width=\".3\" stroke-dasharray=\"1.5 1\"/>"
    }
}
