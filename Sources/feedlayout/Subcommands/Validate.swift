import ArgumentParser
import Foundation
import FeedPipeline
import StatusModel

/// `feedlayout validate FILE...`: loads each feed and prints its counts, or its errors.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check feed files and print, per file, the number of statuses, retweets and pictures.",
        discussion: """
            Formats are detected from the content: the classic plist, Weibo API JSON (streamed), the \
            full model as plist, JSON Lines (streamed). Errors go to stderr with the file, the status index and \
            id, and the key path. Exit code 0 when every file is valid, 1 otherwise.
            """
    )

    @Flag(name: .customLong("skip-invalid"), help: "Report every invalid status instead of stopping at the first (the file still counts as invalid).")
    var skipInvalid = false

    @Argument(help: "Feed files to check.")
    var files: [String]

    func validate() throws {
        try checkInputs(files)
        if files.isEmpty { throw ValidationError("give at least one FILE") }
    }

    func run() throws {
        let options = LoadOptions(skipInvalid: skipInvalid)
        var failed = false
        var out = OutputBuffer()
        var total = (statuses: 0, retweets: 0, pictures: 0)
        var read = 0
        for path in files {
            var report: String?
            do {
                let counts = try FeedValidation.count(path, options: options)
                total.statuses += counts.statuses
                total.retweets += counts.retweets
                total.pictures += counts.pictures
                read += 1
                // Standard input under the name its errors give it.
                let name = path == "-" ? FeedSource.standardInputName : path
                var line = "\(DisplaySafe.escaped(name)): \(counts.statuses) statuses, \(counts.retweets) retweets, \(counts.pictures) pictures (\(counts.format.rawValue))"
                if !counts.skipped.isEmpty {
                    failed = true
                    line += ", \(counts.skipped.count) invalid skipped"
                    for s in counts.skipped { printError(s.description) }
                    printError("\(path): \(counts.skipped.count) invalid statuses skipped")
                }
                report = line
            } catch {
                failed = true
                printError(error.description)
            }
            if let report {
                do {
                    try out.write(report + "\n")
                } catch {
                    printErrorLine("\(error)")
                    throw ExitCode(1)
                }
            }
        }
        if files.count > 1 {
            // Only the files that could be read count; the others were reported above.
            let unread = files.count - read
            try out.write(
                "total: \(total.statuses) statuses, \(total.retweets) retweets, \(total.pictures) pictures in \(read) files"
                    + (unread > 0 ? " (\(unread) not read)" : "") + "\n")
        }
        do {
            try out.flush()
        } catch {
            printErrorLine("\(error)")
            throw ExitCode(1)
        }
        if failed { throw ExitCode(1) }
    }
}
