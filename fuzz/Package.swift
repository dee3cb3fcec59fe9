// swift-tools-version:6.1
//
// libFuzzer executables for FeedLayout, in their own package so that building or testing the
// main package never compiles them with the fuzzer's instrumentation. Each is the driver and one
// call: the checks are the main package's `_FuzzTargets` (built and run on the seeds of
// fuzz/Corpus by its tests). Build and run them with `make fuzz` (scripts/fuzz.sh) from the
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
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"]),
    ]
        + fuzzTargets.map {
            .executableTarget(
                name: $0, dependencies: ["FuzzSupport", .product(name: "_FuzzTargets", package: "FeedLayout")])
        },
    swiftLanguageModes: [.v6]
)
