import ArgumentParser
import Foundation

/// The `feedlayout` command: one subcommand per job, each in `Subcommands/`.
@main
struct FeedLayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedlayout",
        abstract: "Lay out Weibo-style status feeds ahead of time: measure, export, preview, benchmark.",
        version: FeedLayoutVersion.string,
        subcommands: [
            Validate.self, Generate.self, Measure.self, Layout.self, Heights.self, Query.self, Preview.self, Render.self, Bench.self,
        ]
    )

    /// Exit codes: 0 success, 1 input errors, 2 usage errors (ArgumentParser's own usage code is
    /// EX_USAGE, 64: mapped to 2, the convention of POSIX utilities).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

enum FeedLayoutVersion {
    static let string = "0.1.0"
}
