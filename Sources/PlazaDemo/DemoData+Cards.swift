import Foundation
import PlazaCore
import PlazaServer

extension DemoData {
    /// The catalogue's categories and their subcategories, in the order the shop shows them.
    static let cardCategories: [(name: String, subcategories: [String])] = [
        ("Wedding", ["Invitations", "Save the dates", "Thank you"]),
        ("Party", ["Birthday", "Dinner party"]),
        ("Holiday", ["Season's greetings", "New year"]),
    ]

    /// The demo's papers, in cents: cheaper per card from 25 and again from 100.
    static let cardPapers = [
        CardPaperRequest(
            name: "Smooth matte",
            description: "Bright white, 350 gsm, with a smooth uncoated finish.",
            sampleAmount: 150,
            tiers: [
                CardPriceTier(minQuantity: 1, unitAmount: 325), CardPriceTier(minQuantity: 25, unitAmount: 245),
                CardPriceTier(minQuantity: 100, unitAmount: 185),
            ]
        ),
        CardPaperRequest(
            name: "Linen",
            description: "Soft white, 300 gsm, with a fine woven texture you can feel.",
            sampleAmount: 200,
            tiers: [
                CardPriceTier(minQuantity: 1, unitAmount: 375), CardPriceTier(minQuantity: 25, unitAmount: 285),
                CardPriceTier(minQuantity: 100, unitAmount: 215),
            ]
        ),
        CardPaperRequest(
            name: "Recycled kraft",
            description: "Warm brown, 300 gsm, made entirely from recycled fibre.",
            sampleAmount: 150,
            tiers: [
                CardPriceTier(minQuantity: 1, unitAmount: 300), CardPriceTier(minQuantity: 25, unitAmount: 225),
                CardPriceTier(minQuantity: 100, unitAmount: 170),
            ]
        ),
    ]

    /// The card shop (issue 25): three categories, three papers and Dana Moreau's templates (`cardSeeds`), each
    /// uploaded, created and submitted as she would in her studio; the demo admin approves all but one, which waits in
    /// the review queue so that the admin has a template to look at.
    static func seedCards(_ services: PlazaServices, now: Date = Date()) async throws {
        guard try await services.cards.categories().isEmpty else { return }
        // "Wedding" → its id, "Wedding/Invitations" → the subcategory's.
        var categories: [String: UUID] = [:]
        for (name, subcategories) in cardCategories {
            let category = try await services.cards.addCategory(CardCategoryRequest(name: name), now: now)
            categories[name] = category.id
            for subcategory in subcategories {
                let added = try await services.cards.addCategory(
                    CardCategoryRequest(name: subcategory, parentId: category.id),
                    now: now
                )
                categories["\(name)/\(subcategory)"] = added.id
            }
        }
        var papers: [String: UUID] = [:]
        for paper in cardPapers {
            papers[paper.name] = try await services.cards.savePaper(nil, paper, now: now).id
        }
        let dana = try await signedIn(services, "dana")
        var approved: Set<UUID> = []
        for seed in cardSeeds {
            let template = try await services.cards.createTemplate(
                dana,
                try await request(seed, services, dana, categories: categories, papers: papers, now: now),
                now: now
            )
            _ = try await services.cards.submitTemplate(dana, template.id, now: now)
            if seed.approved { approved.insert(template.id) }
        }
        let admin = try await signedIn(services, "admin")
        let queue = try await services.admin.reviewQueue(state: .open, kind: .template, limit: 100, cursor: nil)
        for item in queue.items where approved.contains(item.subjectId) {
            _ = try await services.admin.decide(admin, item.id, approve: true, reason: nil, now: now)
        }
    }

    /// A seed as Dana sends it: its art uploaded page by page, its category and papers by id.
    private static func request(
        _ seed: CardSeed,
        _ services: PlazaServices,
        _ dana: Identity,
        categories: [String: UUID],
        papers: [String: UUID],
        now: Date
    ) async throws -> CardTemplateRequest {
        guard let category = categories[seed.category] else {
            // The operator reads this at the terminal, in English (a demo seed gone wrong).
            var missing = PlazaError.notFound()
            missing.title = "No such demo card category \(seed.category)."
            throw missing
        }
        var colours: [CardColourRequest] = []
        for colour in seed.colours {
            var art: [String: UUID] = [:]
            for page in seed.pages {
                guard let svg = colour.art[page] else { continue }
                art[page.rawValue] = try await services.cards.uploadArt(
                    dana,
                    Data(svg.utf8),
                    contentType: "image/svg+xml",
                    now: now
                ).id
            }
            colours.append(CardColourRequest(name: colour.name, art: art))
        }
        return CardTemplateRequest(
            name: seed.name,
            categoryId: category,
            subcategoryId: categories["\(seed.category)/\(seed.subcategory)"],
            trim: seed.trim,
            pages: seed.pages,
            colours: colours,
            labels: seed.labels,
            photoSlots: seed.photoSlots,
            paperTypeIds: seed.papers.compactMap { papers[$0] }
        )
    }

    /// A demo account acting without a session of its own.
    private static func signedIn(_ services: PlazaServices, _ username: String) async throws -> Identity {
        guard let user = try await AccountStore().user(login: username, on: services.database.sql) else {
            // The operator reads this at the terminal, in English (a demo seed gone wrong).
            var missing = PlazaError.notFound()
            missing.title = "No such demo account \(username)."
            throw missing
        }
        return Identity(user: user, sessionID: UUID())
    }
}
