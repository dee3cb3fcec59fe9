import Foundation
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
