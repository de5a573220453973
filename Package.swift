// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The SDK's modules, from its own package (`PlazaSDK/`).
let core = Target.Dependency.product(name: "PlazaCore", package: "PlazaSDK")
let client = Target.Dependency.product(name: "PlazaClient", package: "PlazaSDK")

let package = Package(
    name: "Plaza",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "PlazaServer", targets: ["PlazaServer"]),
        .executable(name: "plaza", targets: ["plaza"]),
    ],
    dependencies: [
        // The SDK (PlazaCore, PlazaClient): a package of its own, so that an iOS app resolves none of the below.
        .package(path: "PlazaSDK"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // Wallet passes sign with its CMS through `@_spi(CMS)`, which is not a stable API: pinned to the minor version
        // so an update cannot change it unseen (the browser tests also check each pass's signature with OpenSSL).
        .package(url: "https://github.com/apple/swift-certificates.git", .upToNextMinor(from: "1.21.1")),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        .package(url: "https://github.com/JohnSundell/Ink.git", from: "0.6.0"),
    ],
    targets: [
        // zlib, which the Swift toolchain itself needs on Linux and macOS's SDK ships: Deflate, Inflate and CRC-32.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // Byte formats the server needs and an app never does: images, compression, fonts and card layout, the SVG
        // subset of card art, QR codes.
        .target(name: "PlazaMedia", dependencies: [core, "CZlib"], swiftSettings: swiftSettings),
        // Print files for the card shop: a small PDF writer with TrueType embedding (no PDF library among our packages).
        .target(name: "PlazaPDF", dependencies: [core, "PlazaMedia"], swiftSettings: swiftSettings),
        .target(
            name: "PlazaServer",
            dependencies: [
                core, "PlazaMedia", "PlazaPDF",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                // Wallet passes: a certificate's CMS (PKCS #7) signature of a pass's manifest; the demo's RSA key for Google's.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Ink", package: "Ink"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),
        // Demo accounts and businesses for `plaza demo`: data, not part of the server library.
        .target(
            name: "PlazaDemo",
            dependencies: [
                "PlazaServer",
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // `plaza bench`: Plaza measured over HTTP beside its peers (Redis GEO, PostGIS, pgbench); not part of the server.
        .target(
            name: "PlazaBench",
            dependencies: [
                "PlazaServer", "PlazaDemo",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "plaza",
            dependencies: [
                "PlazaServer", "PlazaDemo", "PlazaBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Shared by the server and SDK tests: a real Plaza on a fresh database of either engine.
        .target(
            name: "PlazaTestSupport",
            dependencies: [
                "PlazaServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The FCM stand-in checks RS256 assertions.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        // The Stripe stand-in as a process, for the browser tests (`browser-tests/conftest.py`).
        .executableTarget(
            name: "stripe-stand-in", dependencies: ["PlazaTestSupport"], path: "Tests/StripeStandInServer", swiftSettings: swiftSettings),
        // The Web Push receiver as a process, for the browser tests: it decrypts what Plaza pushes to a browser.
        .executableTarget(
            name: "web-push-receiver", dependencies: ["PlazaTestSupport"], path: "Tests/WebPushReceiverServer", swiftSettings: swiftSettings),
        .testTarget(name: "PlazaMediaTests", dependencies: ["PlazaMedia", core], swiftSettings: swiftSettings),
        .testTarget(name: "PlazaPDFTests", dependencies: ["PlazaPDF", "PlazaMedia", core, "PlazaTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PlazaServerTests",
            dependencies: [
                "PlazaServer", "PlazaTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "Yams", package: "Yams"),
                // Checking wallet passes' signatures in-process (the browser tests check them with OpenSSL too).
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlazaClientTests",
            dependencies: [
                client, "PlazaServer", "PlazaTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
