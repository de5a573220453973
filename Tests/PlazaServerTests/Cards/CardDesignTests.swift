import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Saved designs: a shopper personalizes only what each label allows, sees preflight's findings as they go, saves,
/// reopens, duplicates and deletes; nobody else ever sees the design; a design keeps its template version.
@Suite struct CardDesignTests {
    @Test(arguments: TestEngine.enabled)
    func aShopperPersonalizesWithinWhatEachLabelAllows(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            #expect(
                try await client.send(.post, "/v1/cards/designs", json: CardDesignRequest(templateId: shop.template))
                    .status == .unauthorized
            )

            let design = try await shop.design(
                sam,
                CardDesignRequest(
                    templateId: shop.template,
                    name: "Our wedding",
                    labels: [
                        CardLabelEdit(id: "names", text: "Carla & Dev", font: "serif", size: 30, colour: "#7a1f3d"),
                        CardLabelEdit(id: "date", text: "May 3, 2027"),
                    ]
                )
            )
            #expect(
                design.name == "Our wedding" && design.templateVersion == 1 && design.colour == "ivory"
                    && design.orderable
            )
            let names = try #require(design.labels.first { $0.id == "names" })
            #expect(
                names.text == "Carla & Dev" && names.font == "serif" && names.size == 30 && names.colour == "#7a1f3d"
            )

            // What a label fixes, or a value out of its range, is refused by field; nothing is saved.
            let refused = try await client.send(
                .patch,
                "/v1/cards/designs/\(design.id)",
                json: CardDesignRequest(labels: [
                    CardLabelEdit(id: "date", font: "script"), CardLabelEdit(id: "names", size: 72, x: 500),
                ]),
                token: sam
            )
            #expect(
                refused.problem?.errors?.map(\.field) == ["labels[0].font", "labels[1].size", "labels[1].x"],
                "\(refused.text)"
            )
            #expect(
                try await client.send(.get, "/v1/cards/designs/\(design.id)", token: sam).decode(CardDesign.self).labels
                    == design.labels
            )

            // Too much text: an error finding, and the design cannot be ordered; the layout says where every line went.
            let long = String(repeating: "Carla Anneliese & Devendra ", count: 4)
            let over = try await client.send(
                .patch,
                "/v1/cards/designs/\(design.id)",
                json: CardDesignRequest(labels: [CardLabelEdit(id: "names", text: long)]),
                token: sam
            ).decode(CardDesign.self)
            #expect(
                !over.orderable && over.findings.map(\.code) == [.textOverflow] && over.findings[0].labelId == "names"
            )
            let layout = try await client.send(.get, "/v1/cards/designs/\(design.id)/layout", token: sam).decode(
                CardDesignLayout.self
            )
            let front = try #require(layout.pages.first { $0.page == .front })
            let laid = try #require(front.labels.first { $0.id == "names" })
            #expect(laid.overflow && laid.lines.count > 2 && !layout.orderable)
            #expect(
                laid.lines.allSatisfy { $0.width <= 100 + 1e-6 && $0.x >= 13.5 - 1e-6 },
                "every line within the box's width"
            )
            // Moved so that the date sits on the edge: in the bleed, an error; near the edge, a warning.
            let fixed = try await client.send(
                .patch,
                "/v1/cards/designs/\(design.id)",
                json: CardDesignRequest(labels: [CardLabelEdit(id: "names", text: "Carla & Dev", x: 25, y: 3)]),
                token: sam
            ).decode(CardDesign.self)
            #expect(fixed.findings.map(\.code) == [.outsideSafeArea] && fixed.orderable, "\(fixed.findings)")

            // Nobody else sees it, on any route.
            let eve = try await AccountsDriver(client).signedIn("eve").accessToken
            for path in ["", "/layout", "/preview.svg", "/print.pdf"] {
                #expect(
                    try await client.send(.get, "/v1/cards/designs/\(design.id)\(path)", token: eve).status
                        == .notFound,
                    "\(path)"
                )
            }
            #expect(try await client.send(.delete, "/v1/cards/designs/\(design.id)", token: eve).status == .notFound)
            #expect(
                try await client.send(.get, "/v1/cards/designs", token: eve).decode(Page<CardDesign>.self).items.isEmpty
            )
        }
    }

    @Test func savedDesignsAreReopenedDuplicatedAndKeepTheirTemplateVersion() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let design = try await shop.design(
                sam,
                CardDesignRequest(templateId: shop.template, labels: [CardLabelEdit(id: "names", text: "Mia & Leo")])
            )
            #expect(design.name == "Golden Circle")
            let copy = try await client.send(.post, "/v1/cards/designs/\(design.id)/duplicate", token: sam).decode(
                CardDesign.self
            )
            #expect(copy.name == "Golden Circle (copy)" && copy.labels == design.labels && copy.id != design.id)
            let renamed = try await client.send(
                .patch,
                "/v1/cards/designs/\(copy.id)",
                json: CardDesignRequest(name: "Plan B"),
                token: sam
            )
            #expect(try renamed.decode(CardDesign.self).name == "Plan B")
            #expect(
                try await client.send(.get, "/v1/cards/designs", token: sam).decode(Page<CardDesign>.self).items.map(
                    \.name
                ) == [
                    "Plan B", "Golden Circle",
                ]
            )

            // The designer moves the names label and the admin approves version 2: Sam's design keeps version 1.
            var request = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.wedding,
                sub: shop.invitations,
                paper: shop.linen
            )
            request.labels[0].y = 40
            let edited = try await client.send(
                .patch,
                "/v1/cards/templates/\(shop.template)",
                json: request,
                token: shop.designer
            )
            #expect(try edited.decode(CardTemplate.self).version == 2)
            #expect(
                try await client.send(.get, "/v1/cards/templates/\(shop.template)").decode(CardTemplate.self).version
                    == 1,
                "approved one still shows"
            )
            try await CardsDriver.approve(client, shop.admin, shop.template, designer: shop.designer)
            #expect(
                try await client.send(.get, "/v1/cards/templates/\(shop.template)").decode(CardTemplate.self).labels[0]
                    .y == 40
            )
            let kept = try await client.send(.get, "/v1/cards/designs/\(design.id)", token: sam).decode(CardDesign.self)
            #expect(kept.templateVersion == 1 && kept.labels.first { $0.id == "names" }?.y == 70)
            let fresh = try await shop.design(sam, CardDesignRequest(templateId: shop.template))
            #expect(fresh.templateVersion == 2)

            #expect(try await client.send(.delete, "/v1/cards/designs/\(copy.id)", token: sam).status == .noContent)
            #expect(try await client.send(.get, "/v1/cards/designs/\(copy.id)", token: sam).status == .notFound)
        }
    }
}
