import Foundation
import Hummingbird
import Ink
import NIOPosix
import Yams

/// `/docs/api`: a readable reference of the contract, built from `openapi.yaml` itself so that it cannot drift. The
/// first page says how to authenticate and lists every section's operations; each section (`/docs/api/wallet`) has its
/// operations with their Markdown descriptions rendered (Ink), parameters, the fields of their request and answer with
/// types and examples, what each answer (and error) means, a curl example, and every schema they use. (One page of all
/// ~300 operations and ~350 schemas was 1.5 MB of HTML: slow on a phone, 35 s for axe to check.)
struct APIReference: Sendable {
    let renderer: PageRenderer

    init(services: PlazaServices) {
        renderer = PageRenderer(templates: services.templates)
    }

    /// Everything but the shell, built once for the process (the contract does not change at run time) when the page
    /// is first asked for, on the thread pool: parsing the contract with Yams and rendering its Markdown took a
    /// quarter of a second of every start (issue 42).
    static let content = AsyncOnce<Content> {
        try await NIOThreadPool.singleton.runIfActive {
            let spec = (try? Yams.load(yaml: APIReference.specText) as? [String: Any]) ?? [:]
            return Content(spec: APISpec(spec), markdown: MarkdownParser())
        }
    }

    /// The contract as shipped in the resources (a test checks it equals the repository's `openapi.yaml`).
    static let specText: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "" }
        return text
    }()

    struct Page: Sendable {
        var shell: Shell
        var api: Content
    }

    /// One section's page: its operations and the schemas they use, with the other sections a link away.
    struct SectionPage: Sendable {
        var shell: Shell
        var section: Group
        var sections: [SectionLink]
    }

    struct SectionLink: Sendable {
        var name: String
        var slug: String
        var current: Bool
    }

    struct Content: Sendable {
        var title: String
        var version: String
        /// HTML made by Ink from the spec's own Markdown (trusted: it ships with Plaza); the template prints it as is.
        var description: String
        var authentication: String
        var groups: [Group]
    }

    struct Group: Sendable {
        var name: String
        /// The section's address under `/docs/api/` ("wallet-pass-web-service").
        var slug: String
        var description: String
        var operations: [Operation]
        /// Every schema its operations use, directly or through another schema's fields, by name.
        var schemas: [Schema]
    }

    struct Operation: Sendable {
        var method: String
        var path: String
        var summary: String
        var description: String
        /// Whether it needs a signed-in caller (the page says so in its reader's words).
        var secured: Bool
        var movesMoney: Bool
        var parameters: [Field]
        var hasParameters: Bool
        var request: Schema?
        var replies: [Reply]
        var curl: String
        var anchor: String
    }

    struct Reply: Sendable {
        var status: String
        var description: String
        var schema: String?
        var success: Bool
    }

    struct Schema: Sendable {
        var name: String
        var description: String
        var fields: [Field]
        var hasFields: Bool
        var values: String?
    }

    struct Field: Sendable {
        var name: String
        var type: String
        var typeLink: String?
        var required: Bool
        var description: String
        var example: String?
    }

    /// Anyone: the API reference's first page (authentication, and every section's operations as links).
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let content = try await Self.content.value
        return renderer.render("docs/api", Page(shell: Shell(title: "API reference", context: context), api: content))
    }

    /// Anyone: one section of the reference (`/docs/api/wallet`).
    @Sendable func section(_ request: Request, context: AppRequestContext) async throws -> Response {
        let content = try await Self.content.value
        let slug = context.parameters.get("section") ?? ""
        guard let group = content.groups.first(where: { $0.slug == slug }) else {
            throw PlazaError.notFound("section")
        }
        let links = content.groups.map { SectionLink(name: $0.name, slug: $0.slug, current: $0.slug == slug) }
        let page = SectionPage(
            shell: Shell(title: "\(group.name) · API reference", context: context),
            section: group,
            sections: links
        )
        return renderer.render("docs/api-section", page)
    }
}

extension APIReference.Content {
    init(spec: APISpec, markdown: MarkdownParser) {
        let html = { (text: String?) in text.map { markdown.html(from: $0) } ?? "" }
        title = spec.info["title"] as? String ?? "Plaza API"
        version = spec.info["version"] as? String ?? ""
        description = html(spec.info["description"] as? String)
        authentication = html(
            """
            Most operations need a signed-in user. Log in with `POST /v1/auth/login` (`{"login": "anna", "password": "…"}`):
            the answer's `accessToken` goes in an `Authorization: Bearer <accessToken>` header and lasts 15 minutes;
            `POST /v1/auth/refresh` with the `refreshToken` gives a new pair (each refresh token works once). Devices that
            cannot log in (OwnTracks) use an app password with HTTP Basic. Operations marked **Anyone** need no token.

            ```
            curl -s -X POST \(spec.server)/v1/auth/login -H 'Content-Type: application/json' \\
              -d '{"login": "anna", "password": "demo-anna-2026"}'
            export TOKEN=<the accessToken>
            curl -s \(spec.server)/v1/wallet -H "Authorization: Bearer $TOKEN"
            ```
            """
        )
        let schemas = Dictionary(
            uniqueKeysWithValues: spec.schemaNames.map { ($0, APIReference.Schema(name: $0, spec: spec, html: html)) }
        )
        var groups: [APIReference.Group] = []
        for tag in spec.tagOrder {
            let operations = spec.operations.filter { $0.tag == tag }.map {
                APIReference.Operation($0, spec: spec, html: html)
            }
            guard !operations.isEmpty else { continue }
            groups.append(
                APIReference.Group(
                    name: tag,
                    slug: APIReference.Group.slug(tag),
                    description: html(spec.tagDescriptions[tag]),
                    operations: operations,
                    schemas: APIReference.Group.used(by: operations, in: schemas)
                )
            )
        }
        self.groups = groups
    }
}

extension APIReference.Group {
    /// "Wallet pass web service" → "wallet-pass-web-service".
    static func slug(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    /// The schemas `operations` name (bodies, answers) and those their fields name in turn, sorted by name.
    static func used(
        by operations: [APIReference.Operation],
        in schemas: [String: APIReference.Schema]
    ) -> [APIReference.Schema] {
        var pending = operations.flatMap { [$0.request?.name] + $0.replies.map(\.schema) }.compactMap { $0 }
        var found: [String: APIReference.Schema] = [:]
        while let name = pending.popLast() {
            guard found[name] == nil, let schema = schemas[name] else { continue }
            found[name] = schema
            pending += schema.fields.compactMap { $0.typeLink.map { String($0.dropFirst("#schema-".count)) } }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }
}

extension APIReference.Operation {
    init(_ op: APISpec.Operation, spec: APISpec, html: (String?) -> String) {
        method = op.method.uppercased()
        path = op.path
        summary = op.body["summary"] as? String ?? ""
        description = html(op.body["description"] as? String)
        let secured = (op.body["security"] as? [Any]).map { !$0.isEmpty } ?? true
        self.secured = secured
        let parameterList = (op.body["parameters"] as? [[String: Any]] ?? []).compactMap { spec.resolve($0) }
        movesMoney = (op.body["parameters"] as? [[String: Any]] ?? []).contains {
            ($0["$ref"] as? String)?.hasSuffix("/MoneyIdempotencyKey") == true
        }
        parameters = parameterList.map { parameter in
            let schema = parameter["schema"] as? [String: Any] ?? [:]
            return APIReference.Field(
                name: "\(parameter["name"] as? String ?? "") (\(parameter["in"] as? String ?? ""))",
                type: spec.typeName(schema),
                typeLink: nil,
                required: parameter["required"] as? Bool ?? false,
                description: html(parameter["description"] as? String),
                example: nil
            )
        }
        hasParameters = !parameters.isEmpty
        let bodySchema =
            (((op.body["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"]
            as? [String: Any])?["schema"]
            as? [String: Any]
        let requestName = (bodySchema?["$ref"] as? String).map(APISpec.refName)
        request = requestName.map { APIReference.Schema(name: $0, spec: spec, html: html) }
        let responses = op.body["responses"] as? [String: Any] ?? [:]
        replies = responses.keys.sorted().map { status in
            let reply = spec.resolve(responses[status] as? [String: Any] ?? [:]) ?? [:]
            let content = reply["content"] as? [String: Any] ?? [:]
            let schema = (content.values.first as? [String: Any])?["schema"] as? [String: Any]
            return APIReference.Reply(
                status: status,
                description: html(reply["description"] as? String),
                schema: (schema?["$ref"] as? String).map(APISpec.refName),
                success: status.hasPrefix("2")
            )
        }
        // curl: the path's parameters as placeholders, a token unless anyone may call it, a key when money moves.
        var lines = ["curl -s -X \(method) '\(spec.server)\(path)'"]
        if secured { lines.append("-H \"Authorization: Bearer $TOKEN\"") }
        if movesMoney { lines.append("-H \"Idempotency-Key: $(uuidgen)\"") }
        if let requestName {
            lines.append("-H 'Content-Type: application/json'")
            lines.append("-d '\(spec.exampleJSON(for: requestName).replacingOccurrences(of: "'", with: "'\\''"))'")
        }
        curl = lines.joined(separator: " \\\n  ")
        anchor = op.body["operationId"] as? String ?? "\(op.method)-\(op.path)"
    }
}

extension APIReference.Schema {
    init(name: String, spec: APISpec, html: (String?) -> String) {
        self.name = name
        let schema = spec.schemas[name] ?? [:]
        description = html(schema["description"] as? String)
        let required = Set(schema["required"] as? [String] ?? [])
        let properties = schema["properties"] as? [String: Any] ?? [:]
        fields = properties.keys.sorted { (required.contains($0) ? 0 : 1, $0) < (required.contains($1) ? 0 : 1, $1) }
            .map { key in
                let property = properties[key] as? [String: Any] ?? [:]
                return APIReference.Field(
                    name: key,
                    type: spec.typeName(property),
                    typeLink: spec.referencedSchema(property).map { "#schema-\($0)" },
                    required: required.contains(key),
                    description: html(property["description"] as? String),
                    example: spec.example(property)
                )
            }
        hasFields = !fields.isEmpty
        values = (schema["enum"] as? [Any]).map { $0.map { "\($0)" }.joined(separator: ", ") }
    }
}
