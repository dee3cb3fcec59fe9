import Foundation
import ArgumentParser
import StatusModel

// The one error path of every command: messages go to standard error as
// "feedlayout: <what>" (the file, record and field first for input errors), escaped (messages
// quote content), one line each.

/// Writes "feedlayout: MESSAGE" on standard error, escaped (`DisplaySafe`): messages quote content.
func printError(_ message: String) {
    printErrorLine("feedlayout: \(message)")
}

/// Writes one line on standard error, its control and bidi characters escaped. A failing write
/// of standard error is ignored: there is nowhere left to report it.
func printErrorLine(_ line: String) {
    let bytes = Array((DisplaySafe.escaped(line) + "\n").utf8)
    try? DescriptorOutput.write(bytes, to: 2, name: "<stderr>")
}

/// Runs a command's work and turns its failures into the one error path: an `ExitCode` passes
/// through, a `CLIError` is printed as it is (it carries its prefix), anything else is printed
/// after "feedlayout: "; both exit with 1 (input errors).
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as CLIError {
        printErrorLine(error.description)
        throw ExitCode(1)
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}
