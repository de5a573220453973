import Foundation
import Hummingbird
import PlazaCore

/// From the editor to the cart: the design saved as the form holds it, then a sample or prints added.
extension CardsPages {
    /// Saves what the form holds, then puts the design in the cart: a sample, or the quantity on the paper chosen.
    @Sendable func addToCart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "design")
        let back = "/cards/designs/\(id.uuidString.lowercased())?page=\(form["page"].isEmpty ? "front" : form["page"])"
        let sample = form["kind"] == "sample"
        let design = try await cards.design(context.identity, id)
        if !design.locked {
            do {
                _ = try await cards.updateDesign(context.identity, id, Self.request(form, design: design))
            } catch let error as PlazaError where error.status.code < 500 {
                return renderer.refused(
                    "design",
                    FormState(form, names: Self.fieldNames(design), error: Self.named(error)),
                    returnTo: back
                )
            }
        }
        let added: CardCartItem
        do {
            guard let paper = UUID(uuidString: form["paperId"]) else {
                throw PlazaError.validation(field: "paperId", phrase("Pick a paper."))
            }
            let quantity = Int(form["quantity"].trimmingCharacters(in: .whitespaces))
            added = try await cards.addToCart(
                context.identity,
                CardCartItemRequest(
                    designId: id,
                    paperId: paper,
                    kind: sample ? .sample : .print,
                    quantity: sample ? 1 : quantity ?? 0
                )
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "cart",
                FormState(form, names: ["paperId", "quantity"], error: error),
                returnTo: back + "#order"
            )
        }
        return PageRenderer.seeOther(
            "/cards/cart?notice=\(sample ? "sample" : "added")&line=\(added.id.uuidString.lowercased())"
        )
    }
}
