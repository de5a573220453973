/// A picture of what a review item asks to publish (a card template's page as shoppers will see it), with its text
/// twin: the admin looks at it before approving (issue 39). The domain that owns the item draws it.
struct ReviewArt: Sendable {
    /// "Front, Gold".
    var title: String
    /// Inline SVG, drawn by the server from the stored art and text.
    var svg: String
    /// What the picture shows, in words.
    var text: String
}
