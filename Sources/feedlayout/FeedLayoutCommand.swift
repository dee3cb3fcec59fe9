import ArgumentParser
import Foundation
import StatusModel

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
            // Commands write standard output through `DescriptorOutput` (checked writes); anything
            // stdio still buffers is flushed here, and a failure is an error, not a 0.
            if fflush(nil) != 0 {
                printError("<stdout>: cannot write the file: \(String(cString: strerror(errno)))")
                Foundation.exit(1)
            }
        } catch {
            // Every message goes through the sanitiser (they can quote file names, arguments and
            // feed content); help and version go to standard output.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { try? DescriptorOutput.writeStandardOutput(Array((message + "\n").utf8)) }
                Foundation.exit(0)
            }
            if !message.isEmpty {
                let bytes = Array((DisplaySafe.escaped(message, keepingNewlines: true) + "\n").utf8)
                try? DescriptorOutput.write(bytes, to: 2, name: "<stderr>")
            }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

enum FeedLayoutVersion {
    static let string = "0.1.0"
}
