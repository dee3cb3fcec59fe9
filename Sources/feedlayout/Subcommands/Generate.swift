import ArgumentParser
import Foundation
import StatusModel

/// `feedlayout generate`: a deterministic synthetic feed of any size.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a deterministic synthetic feed (same seed, same bytes on every machine).",
        discussion: """
            json and jsonl are streamed (memory does not grow with --count); plist is built in memory. \
            With -o the file is written atomically (a temporary file renamed into place).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case plist, json, jsonl
    }

    @Option(help: "Number of statuses (required; ≥ 0).")
    var count: Int

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 1

    @Option(help: "Output format: plist, json or jsonl.")
    var format: Format = .jsonl

    @Option(name: .shortAndLong, help: "Output file (default: standard output).")
    var output: String?

    func validate() throws {
        try checkOutput(output)
        if count < 0 { throw ValidationError("--count must be ≥ 0") }
    }

    func run() throws {
        do {
            var generator = FeedGenerator(seed: seed)
            if format == .plist {
                let data = FeedWriter.data(generator.statuses(count: count), format: .modelPlist)
                if let output {
                    try FeedWriter.writeAtomically(data, to: URL(fileURLWithPath: output))
                } else {
                    try DescriptorOutput.writeStandardOutput(data)
                }
                return
            }
            let feedFormat: FeedFormat = format == .json ? .weiboJSON : .jsonLines
            let writer = try output.map { (path) throws(StatusModelError) in
                try StreamingFeedWriter(atomicallyTo: URL(fileURLWithPath: path), format: feedFormat)
            } ?? StreamingFeedWriter(handle: .standardOutput, format: feedFormat)
            for _ in 0..<count { try writer.write(generator.next()) }
            try writer.finish()
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
