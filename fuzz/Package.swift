// swift-tools-version:6.1
//
// libFuzzer targets for FeedLayout, in their own package so that building or testing the main
// package never compiles them. Build and run them with `make fuzz` (scripts/fuzz.sh) from the
// repository root; see docs/hardening.md.
import PackageDescription

let fuzzTargets = [
    "FuzzClassicPlist", "FuzzModelPlist", "FuzzWeiboJSON", "FuzzJSONLines", "FuzzDetect", "FuzzText", "FuzzCell",
]

let package = Package(
    name: "FeedLayoutFuzz",
    products: fuzzTargets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [
        .package(name: "FeedLayout", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzDriver",
                .product(name: "StatusModel", package: "FeedLayout"),
                .product(name: "TextMeasure", package: "FeedLayout"),
                .product(name: "CellLayout", package: "FeedLayout"),
            ]
        ),
    ] + fuzzTargets.map { .executableTarget(name: $0, dependencies: ["FuzzSupport"]) },
    swiftLanguageModes: [.v6]
)
