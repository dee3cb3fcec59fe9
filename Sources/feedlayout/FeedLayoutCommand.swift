import ArgumentParser

/// The `feedlayout` command: one subcommand per job, each in `Subcommands/`.
@main
struct FeedLayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedlayout",
        abstract: "Lay out Weibo-style status feeds ahead of time: measure, export, preview, benchmark.",
        version: FeedLayoutVersion.string,
        subcommands: [Validate.self, Generate.self, Measure.self, Render.self]
    )
}

enum FeedLayoutVersion {
    static let string = "0.1.0"
}
