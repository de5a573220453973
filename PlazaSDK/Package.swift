// swift-tools-version: 6.0
// The Plaza SDK: the API's models and rules (PlazaCore) and the client an iOS app calls (PlazaClient).
// A package of its own so that an app adding it resolves swift-crypto alone (and uses CryptoKit on Apple platforms),
// never the server's packages; the server's package uses it by path (`../Package.swift`).
import PackageDescription

var swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
#if compiler(>=6.1)
swiftSettings.append(.enableUpcomingFeature("MemberImportVisibility"))
#endif

let package = Package(
    name: "PlazaSDK",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "PlazaCore", targets: ["PlazaCore"]),
        .library(name: "PlazaClient", targets: ["PlazaClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0")
    ],
    targets: [
        .target(name: "PlazaCore", swiftSettings: swiftSettings),
        .target(
            name: "PlazaClient",
            // Ed25519 to check punch tokens offline and AES-GCM for the offline punch store: CryptoKit on Apple
            // platforms, swift-crypto (the same API) elsewhere.
            dependencies: [
                "PlazaCore",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux, .android, .windows])),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PlazaCoreTests", dependencies: ["PlazaCore"], swiftSettings: swiftSettings),
    ]
)
