// swift-tools-version:6.1
//
// FeedLayout: ahead-of-time layout of Weibo-style status feeds.
//
// Module graph (dependencies point one way, C shims at the bottom, the CLI at the top):
//
//   CFreeType, CHarfBuzz, CThai, CFriBidi, CPrefetch, UnicodeText -> TextMeasure -> CellLayout <- StatusModel
//   CellLayout -> TableLayout -> FrameExport, TerminalPreview, RasterRender (+ CPNG, CCairo) -> feedlayout
//   StatusModel, TableLayout, FrameExport -> FeedPipeline (the jobs: export, validation, heights) -> feedlayout
//   FeedLayoutSupport (locks, per-thread state, byte hashing, the sharded cache, number and JSON
//   string writing) under every library module: `package` declarations, no product.
// The products are the six library modules and the command (and `_FuzzTargets`, the fuzz
// targets' checks for fuzz/, not API); TerminalPreview, RasterRender and UnicodeText serve the
// command and the text engine only.
// Each target lists every module it imports, not only the ones its imports bring in: an
// incremental build recompiles a target when a module it lists changes, and one that imported
// TextMeasure without listing it kept the old size of a changed `TextLayout` (and crashed).
import PackageDescription

let package = Package(
    name: "FeedLayout",
    products: [
        .executable(name: "feedlayout", targets: ["feedlayout"]),
        .library(name: "StatusModel", targets: ["StatusModel"]),
        .library(name: "TextMeasure", targets: ["TextMeasure"]),
        .library(name: "CellLayout", targets: ["CellLayout"]),
        .library(name: "TableLayout", targets: ["TableLayout"]),
        .library(name: "FrameExport", targets: ["FrameExport"]),
        .library(name: "FeedPipeline", targets: ["FeedPipeline"]),
        // The fuzz targets' checks, for the libFuzzer executables of fuzz/ (not API).
        .library(name: "_FuzzTargets", targets: ["_FuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (make docs); a plugin: nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CThai", pkgConfig: "libthai", providers: [.apt(["libthai-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPrefetch"),

        // Plumbing shared by the modules (locks, per-thread state, byte hashing, the sharded
        // cache, the seeded generator, package files, the number formatter, the JSON string
        // escaper): `package` declarations, no product.
        .target(name: "FeedLayoutSupport"),
        // Unicode properties, line and grapheme breaks, scripts: no product, yet its declarations
        // are public, not package. Swift's default cross-module optimization inlines small public
        // functions only; as package ones, the script and break-flag calls of the text engine's
        // per-character loop were not inlined (+0.35 % instructions for a corpus layout).
        .target(name: "UnicodeText"),
        .target(name: "StatusModel", dependencies: ["FeedLayoutSupport"]),
        .target(name: "TextMeasure", dependencies: ["FeedLayoutSupport", "CFreeType", "CHarfBuzz", "CThai", "CFriBidi", "CPrefetch", "UnicodeText"]),
        .target(name: "CellLayout", dependencies: ["FeedLayoutSupport", "TextMeasure", "StatusModel", "CPrefetch"]),
        .target(name: "TableLayout", dependencies: ["FeedLayoutSupport", "StatusModel", "TextMeasure", "CellLayout"]),
        .target(name: "FrameExport", dependencies: ["FeedLayoutSupport", "TextMeasure", "CellLayout", "TableLayout"]),
        .target(name: "FeedPipeline", dependencies: ["StatusModel", "CellLayout", "TableLayout", "FrameExport"]),
        .target(name: "TerminalPreview", dependencies: ["StatusModel", "TextMeasure", "CellLayout", "TableLayout", "UnicodeText"]),
        .target(name: "RasterRender", dependencies: ["TextMeasure", "CellLayout", "TableLayout", "CPNG", "CFreeType", "CCairo"]),
        .executableTarget(
            name: "feedlayout",
            dependencies: [
                "FeedLayoutSupport", "StatusModel", "TextMeasure", "CellLayout", "TableLayout", "FrameExport", "FeedPipeline",
                "TerminalPreview", "RasterRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // jemalloc replaces glibc's malloc in the command (not in the libraries): its
            // per-thread caches take the export on 2 threads from 1.5-1.9x to 1.9x the one-thread
            // speed and cut 5-10 % of its CPU time (benchmarks/README.md, "End-to-end jobs").
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        .target(name: "_LayoutTestSupport", dependencies: ["FeedLayoutSupport", "TextMeasure", "StatusModel"]),
        // Built with the package so that the checks follow its modules; run on the seeds by
        // HardeningTests and under libFuzzer by fuzz/ (`make fuzz`).
        .target(name: "_FuzzTargets", dependencies: ["StatusModel", "TextMeasure", "CellLayout"]),

        .testTarget(name: "UnicodeTextTests", dependencies: ["UnicodeText", "_LayoutTestSupport"]),
        .testTarget(name: "StatusModelTests", dependencies: ["FeedLayoutSupport", "StatusModel", "_LayoutTestSupport"]),
        .testTarget(name: "TextMeasureTests", dependencies: ["FeedLayoutSupport", "UnicodeText", "TextMeasure", "_LayoutTestSupport"]),
        .testTarget(
            name: "CellLayoutTests",
            dependencies: ["StatusModel", "TextMeasure", "CellLayout", "_LayoutTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "TableLayoutTests",
            dependencies: ["StatusModel", "TextMeasure", "CellLayout", "TableLayout", "_LayoutTestSupport"]),
        .testTarget(
            name: "FrameExportTests",
            dependencies: [
                "StatusModel", "TextMeasure", "CellLayout", "TableLayout", "FeedLayoutSupport", "FrameExport", "_LayoutTestSupport",
            ],
            exclude: ["Goldens"]),
        .testTarget(
            name: "TerminalPreviewTests",
            dependencies: ["StatusModel", "TextMeasure", "CellLayout", "TableLayout", "TerminalPreview", "_LayoutTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "RasterRenderTests",
            dependencies: ["StatusModel", "TextMeasure", "CellLayout", "TableLayout", "RasterRender", "FrameExport", "_LayoutTestSupport"]),
        .testTarget(
            name: "FeedPipelineTests",
            dependencies: ["StatusModel", "TextMeasure", "CellLayout", "TableLayout", "FrameExport", "FeedPipeline", "_LayoutTestSupport"]),
        .testTarget(name: "feedlayoutTests", dependencies: ["_LayoutTestSupport"]),
        .testTarget(
            name: "HardeningTests",
            dependencies: ["StatusModel", "TextMeasure", "CellLayout", "TableLayout", "_FuzzTargets", "_LayoutTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
