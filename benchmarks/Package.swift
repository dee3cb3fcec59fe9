// swift-tools-version:6.1
//
// FeedLayout's benchmark suite: a separate package, so the main package's `swift build` and
// `swift test` never compile the harness or its dependencies. Run it with `make bench` (from the
// package root) or `bash run.sh` here; see README.md.
import PackageDescription

let package = Package(
    name: "FeedLayoutBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "FeedLayout", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FeedLayoutBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StatusModel", package: "FeedLayout"),
                .product(name: "TextMeasure", package: "FeedLayout"),
                .product(name: "CellLayout", package: "FeedLayout"),
                .product(name: "TableLayout", package: "FeedLayout"),
                .product(name: "FrameExport", package: "FeedLayout"),
            ],
            path: "Benchmarks/FeedLayoutBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
