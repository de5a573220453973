import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A card shop to test against: categories, a paper, a designer (Dana) and her "Golden Circle" wedding invitation
/// (5×7 in, a front and an inside), approved into the catalogue.
struct CardsDriver {
    let client: any TestClientProtocol
    let admin: String
    let designer: String
    let wedding: UUID
    let invitations: UUID
    let party: UUID
    let linen: UUID
    let template: UUID

    static let art = Data(
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 133 183.8">\
        <rect x="0" y="0" width="133" height="183.8" fill="#f6efe6"/><circle cx="66.5" cy="40" r="20" fill="#c9a227"/></svg>
        """.utf8
    )

    static let labels = [
        CardLabelSpec(
            id: "names",
            page: .front,
            text: "Ana & Ben",
            font: "script",
            size: 28,
            colour: "#333333",
            x: 13.5,
            y: 70,
            width: 100,
            height: 25,
            align: .center,
            maxLines: 2,
            required: true,
            editable: [.text, .font, .size, .colour, .position],
            fonts: ["script", "serif"],
            colours: ["#333333", "#7a1f3d"],
            minSize: 18,
            maxSize: 36
        ),
        CardLabelSpec(
            id: "date",
            page: .front,
            text: "June 12, 2027",
            font: "serif",
            size: 12,
            colour: "#333333",
            x: 13.5,
            y: 100,
            width: 100,
            height: 10,
            maxLines: 1
        ),
        CardLabelSpec(
            id: "message",
            page: .inside,
            text: "With love",
            font: "serif",
            size: 14,
            colour: "#333333",
            x: 13.5,
            y: 60,
            width: 100,
            height: 40
        ),
    ]

    static func open(_ client: any TestClientProtocol, _ services: PlazaServices) async throws -> CardsDriver {
        let admin = try await AdminTests.admin(client, services)
        let wedding = try await category(client, admin, CardCategoryRequest(name: "Wedding"))
        let invitations = try await category(client, admin, CardCategoryRequest(name: "Invitations", parentId: wedding))
        let party = try await category(client, admin, CardCategoryRequest(name: "Party"))
        let paper = CardPaperRequest(
            name: "Linen",
            description: "Textured, 300 gsm",
            sampleAmount: 200,
            tiers: [CardPriceTier(minQuantity: 1, unitAmount: 350), CardPriceTier(minQuantity: 25, unitAmount: 250)]
        )
        let linen = try await client.send(.post, "/v1/admin/cards/papers", json: paper, token: admin).decode(
            CardPaperType.self
        ).id
        let designer = try await Self.designer(client, services, "dana", admin: admin)
        let template = try await Self.template(
            client,
            designer,
            request: try await Self.request(client, designer, category: wedding, sub: invitations, paper: linen)
        )
        try await approve(client, admin, template, designer: designer)
        return CardsDriver(
            client: client,
            admin: admin,
            designer: designer,
            wedding: wedding,
            invitations: invitations,
            party: party,
            linen: linen,
            template: template
        )
    }

    static func category(
        _ client: any TestClientProtocol,
        _ admin: String,
        _ request: CardCategoryRequest
    ) async throws -> UUID {
        let created = try await client.send(.post, "/v1/admin/cards/categories", json: request, token: admin)
        #expect(created.status == .created, "\(created.text)")
        return try created.decode(CardCategory.self).id
    }

    /// `name`, signed in, made a designer by the admin.
    static func designer(
        _ client: any TestClientProtocol,
        _ services: PlazaServices,
        _ name: String,
        admin: String
    ) async throws -> String {
        _ = try await AccountsDriver(client).signedIn(name)
        let user = try #require(try await AccountStore().user(login: name, on: services.database.sql))
        let granted = try await client.send(
            .put,
            "/v1/admin/users/\(user.id)/role",
            json: RoleChange(role: .designer),
            token: admin
        )
        #expect(granted.status == .ok, "\(granted.text)")
        return try await AccountsDriver(client).login(name).decode(TokenResponse.self).accessToken
    }

    static func uploadArt(
        _ client: any TestClientProtocol,
        _ token: String,
        _ data: Data = art,
        type: String = "image/svg+xml"
    ) async throws
        -> TestResponse
    {
        try await client.execute(
            uri: "/v1/cards/art",
            method: .post,
            headers: [.contentType: type, .authorization: "Bearer \(token)"],
            body: ByteBuffer(bytes: data)
        )
    }

    static func request(
        _ client: any TestClientProtocol,
        _ designer: String,
        category: UUID,
        sub: UUID?,
        paper: UUID
    ) async throws
        -> CardTemplateRequest
    {
        let art = try await uploadArt(client, designer).decode(CardArtUpload.self).id
        return CardTemplateRequest(
            name: "Golden Circle",
            categoryId: category,
            subcategoryId: sub,
            trim: CardTrim(widthMm: 127, heightMm: 177.8),
            pages: [.front, .inside],
            colours: [CardColourRequest(name: "Ivory", art: ["front": art])],
            labels: labels,
            paperTypeIds: [paper]
        )
    }

    static func template(
        _ client: any TestClientProtocol,
        _ designer: String,
        request: CardTemplateRequest
    ) async throws -> UUID {
        let created = try await client.send(.post, "/v1/cards/templates", json: request, token: designer)
        #expect(created.status == .created, "\(created.text)")
        return try created.decode(CardTemplate.self).id
    }

    /// Submitted by its designer, approved from the queue.
    static func approve(
        _ client: any TestClientProtocol,
        _ admin: String,
        _ template: UUID,
        designer: String
    ) async throws {
        let submitted = try await client.send(.post, "/v1/cards/templates/\(template)/submit", token: designer)
        #expect(submitted.status == .ok, "\(submitted.text)")
        let item = try #require(try await TrustTests.queue(client, admin, .template).first { $0.subjectId == template })
        #expect(try await TrustTests.approve(client, admin, item, ReviewApproval()).status == .ok)
    }

    func design(_ token: String, _ request: CardDesignRequest) async throws -> CardDesign {
        let created = try await client.send(.post, "/v1/cards/designs", json: request, token: token)
        #expect(created.status == .created, "\(created.text)")
        return try created.decode(CardDesign.self)
    }
}
