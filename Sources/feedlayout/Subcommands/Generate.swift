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

    @Option(help: "Number of statuses.")
    var count: Int

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 1

    @Option(help: "Output format: plist, json or jsonl.")
    var format: Format = .jsonl

    @Option(name: .shortAndLong, help: "Output file (default: standard output).")
    var output: String?

    func validate() throws {
        if count < 0 { throw ValidationError("--count must be ≥ 0") }
    }

    func run() throws {
        do {
            if let output {
                let writer = try AtomicFileWriter(url: URL(fileURLWithPath: output))
                try emit { data throws(StatusModelError) in try writer.write(data) }
                try writer.commit()
            } else {
                try emit { data in FileHandle.standardOutput.write(data) }
            }
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }

    /// Produces the output in pieces of about 256 KiB.
    private func emit(_ sink: (Data) throws(StatusModelError) -> Void) throws(StatusModelError) {
        var generator = FeedGenerator(seed: seed)
        if format == .plist {
            try sink(FeedWriter.data(generator.statuses(count: count), format: .modelPlist))
            return
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 19)
        if format == .json { buffer.append(contentsOf: Array("{\"statuses\":[\n".utf8)) }
        for i in 0..<count {
            let s = generator.next()
            if format == .json {
                if i > 0 { buffer.append(contentsOf: Array(",\n".utf8)) }
                FeedWriter.json(s, into: &buffer)
            } else {
                FeedWriter.jsonLine(s, into: &buffer)
            }
            if buffer.count >= 1 << 18 {
                try sink(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if format == .json { buffer.append(contentsOf: Array("\n]}\n".utf8)) }
        if !buffer.isEmpty { try sink(Data(buffer)) }
    }
}
