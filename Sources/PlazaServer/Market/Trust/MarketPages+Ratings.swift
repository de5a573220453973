import Foundation
import Hummingbird
import PlazaCore

/// After the handshake, the deal card asks each side to rate the other, and says what was given and, once shown, got.
extension MarketPages {
    struct RatingView: Sendable {
        var canRate: Bool
        var other: String
        var mine: String?
        var theirs: String?
        var waiting: String?
        var form: FormState
        var choices: [StarChoice]
    }

    struct StarChoice: Sendable {
        var value: Int
        var stars: String
        var words: String
        var checked: Bool
    }

    /// What a number of stars means, in the reader's words.
    static func starWords(_ stars: Int) -> String {
        switch stars {
        case 5: say("Excellent")
        case 4: say("Good")
        case 3: say("Okay")
        case 2: say("Poor")
        case 1: say("Bad")
        default: ""
        }
    }

    /// After the handshake: the rating form, or what was given and (once shown) got.
    func ratingView(_ context: AuthenticatedContext, listing: UUID, other: String) async throws -> RatingView? {
        guard let ratings = try? await market.dealRatings(context.identity, listing: listing),
            ratings.canRate || ratings.mine != nil
        else { return nil }
        let form = context.page.form("rating") ?? FormState(names: ["stars", "comment"])
        let chosen = Int(form.fields["stars"]?.value ?? "")
        return RatingView(
            canRate: ratings.canRate,
            other: other,
            mine: ratings.mine.map {
                say("You gave {name} {stars}", ["name": other, "stars": Self.stars($0.stars)])
                    + ($0.comment.map { ": “\($0)”" } ?? "")
            },
            theirs: ratings.theirs.map {
                say("{name} gave you {stars}", ["name": other, "stars": Self.stars($0.stars)])
                    + ($0.comment.map { ": “\($0)”" } ?? "")
            },
            waiting: ratings.theirs != nil
                ? nil
                : ratings.theirsWaiting
                    ? say("{name} rated you: rate them to read it.", ["name": other])
                    : ratings.mine != nil
                        ? say("{name}'s rating of you shows once they rate, or in a week.", ["name": other]) : nil,
            form: form,
            choices: (1...5).reversed().map {
                StarChoice(value: $0, stars: Self.stars($0), words: Self.starWords($0), checked: chosen == $0)
            }
        )
    }

    /// The rating form of the deal card.
    @Sendable func ratePage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "conversation")
        let conversation = try await market.conversation(context.identity, id)
        do {
            let stars = Int(form["stars"]) ?? 0
            let rating = try await market.rate(
                context.identity,
                listing: conversation.listing.id,
                RatingRequest(stars: stars, comment: form.optional("comment"))
            )
            return PageRenderer.seeOther(Self.path(id, notice: rating.shownAt <= Date() ? "rated-both" : "rated"))
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "rating",
                FormState(form, names: ["stars", "comment"], error: error),
                returnTo: Self.path(id) + "#deal"
            )
        }
    }
}
