// Hostile inputs through the command line (docs/hardening.md §4): escape sequences through every
// error path, write failures, file rights and signals, numeric options, bounded preview memory.
import Foundation
import XCTest
import _LayoutTestSupport

final class HostileCommandTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Bytes a terminal would act on: C0 but newline, DEL, C1 (as UTF-8), bidi controls.
    private func assertInert(_ s: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for u in s.unicodeScalars where u != "\n" {
            let v = u.value
            let bad = v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            XCTAssertFalse(bad, "\(what): U+\(String(v, radix: 16)) on stderr: \(s.debugDescription)", file: file, line: line)
        }
    }

    /// OSC sequences (title, clipboard through OSC 52) in keys, values and file names went to
    /// stderr verbatim from validate, layout and preview.
    func testEscapeSequencesNeverReachStandardError() throws {
        let osc = "\\u001b]0;PWNED\\u0007\\u001b]52;c;SGVsbG8=\\u0007\\u202e\\u009b"
        let raw = "\u{1B}]0;PWNED\u{07}"
        let user = #""user":{"id":1,"screen_name":"a"}"#
        let files = [
            try write("key.json", #"[{"id":1,"text":"x",\#(user),"pic_infos":{"\#(osc)":5}}]"#),
            try write("value.json", #"[{"id":1,"text":"x",\#(user),"reposts_count":"\#(osc)"}]"#),
            try write("lines.jsonl", "{\"id\":1,\"text\":\"x\",\(user)}\n{\"id\":\"\(osc)\"}\n"),
            try write("name\(raw).json", #"[{"id":"x"}]"#),
            try write("xml.plist", "<plist><array><dict><key>\(raw)</key><string/><key>\(raw)</key><string/></dict></array></plist>"),
            try write("garbage\(raw)", raw),
        ]
        // preview decodes only the rows it needs from a JSON Lines file: 0:2 reaches the bad line.
        let commands: [[String]] = [
            ["validate"], ["layout"], ["preview", "--rows", "0:2"], ["query", "--at", "0"], ["render", "-o", dir.appendingPathComponent("o.png").path],
        ]
        for file in files {
            for command in commands {
                for skip in [[], ["--skip-invalid"]] {
                    let r = try FeedlayoutBinary.run(command + skip + [file])
                    assertInert(r.stderr, "\(command) \(skip) \((file as NSString).lastPathComponent)")
                    XCTAssertFalse(r.stderr.isEmpty, "\(command) \(file): no message")
                }
            }
        }
        // Arguments are echoed by usage errors: escaped too.
        let r = try FeedlayoutBinary.run(["layout", "--rows", raw])
        XCTAssertEqual(r.status, 2)
        assertInert(r.stderr, "--rows")
    }

    /// Runs feedlayout with standard output on `path` (nil: closed).
    private func run(_ args: [String], stdout path: String?) throws -> (Int32, String) {
        let err = dir.appendingPathComponent("err-\(UUID().uuidString)")
        XCTAssertTrue(FileManager.default.createFile(atPath: err.path, contents: nil), err.path)
        let p = Process()
        p.executableURL = try FeedlayoutBinary.url()
        p.currentDirectoryURL = TestPaths.packageRoot
        if let path {
            p.arguments = args
            p.standardOutput = FileHandle(forWritingAtPath: path)
        } else {
            // Through a shell, which closes descriptor 1 before exec.
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "exec \"$0\" \"$@\" >&-", try FeedlayoutBinary.url().path] + args
        }
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, try String(contentsOf: err, encoding: .utf8))
    }

    /// A write error on standard output crashed (try!, exit 132) or was lost with exit 0.
    func testWriteErrorsOnStandardOutputAreErrors() throws {
        let commands: [[String]] = [
            ["layout"], ["layout", "--format", "jsonl"], ["query", "--at", "0"], ["validate", "Fixtures/feed.plist"],
            ["preview", "--rows", "0:2"], ["generate", "--count", "3", "--format", "plist"],
            ["generate", "--count", "3"], ["render", "--rows", "0:1", "-o", "-"],
        ]
        for command in commands {
            for target in ["/dev/full", nil] as [String?] {
                let (status, stderr) = try run(command, stdout: target)
                XCTAssertEqual(status, 1, "\(command) > \(target ?? "closed"): \(stderr)")
                let lines = stderr.split(separator: "\n")
                XCTAssertEqual(lines.count, 1, "\(command): \(stderr)")
                XCTAssertTrue(stderr.contains("<stdout>"), "\(command): \(stderr)")
            }
        }
    }

    /// The temporary file was created with default rights: a 600 file became 644.
    func testReplacingAFileKeepsItsMode() throws {
        let out = dir.appendingPathComponent("out.json")
        try Data("old".utf8).write(to: out)
        chmod(out.path, 0o600)
        let r = try FeedlayoutBinary.run(["layout", "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        var st = stat()
        XCTAssertEqual(stat(out.path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertGreaterThan(st.st_size, 1000)
        // A read-only file: refused unless root (who may write it, and it stays read-only).
        chmod(out.path, 0o444)
        let ro = try FeedlayoutBinary.run(["layout", "-o", out.path])
        if geteuid() == 0 {
            XCTAssertEqual(ro.status, 0, ro.stderr)
        } else {
            XCTAssertEqual(ro.status, 1)
            XCTAssertTrue(ro.stderr.contains("not writable"), ro.stderr)
        }
        XCTAssertEqual(stat(out.path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o444)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.json"])
    }

    /// Outputs that are not regular files are written in place.
    func testNonRegularOutputsAreWrittenDirectly() throws {
        for args in [["layout", "-o", "/dev/null"], ["render", "--rows", "0:1", "-o", "/dev/null"], ["generate", "--count", "2", "-o", "/dev/null"]] {
            let r = try FeedlayoutBinary.run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        var st = stat()
        XCTAssertEqual(stat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
    }

    /// SIGTERM or SIGINT during an export left .NAME.tmp-* next to the output.
    func testSignalsRemoveTheTemporaryFile() throws {
        let feed = dir.appendingPathComponent("big.jsonl").path
        XCTAssertEqual(try FeedlayoutBinary.run(["generate", "--count", "40000", "-o", feed]).status, 0)
        for sig in [SIGTERM, SIGINT] {
            let outDir = dir.appendingPathComponent("out-\(sig)")
            try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
            let p = Process()
            p.executableURL = try FeedlayoutBinary.url()
            p.currentDirectoryURL = TestPaths.packageRoot
            p.arguments = ["layout", feed, "--threads", "1", "-o", outDir.appendingPathComponent("out.json").path]
            p.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try p.run()
            var sawTemp = false
            for _ in 0..<600 where !sawTemp {
                usleep(50_000)
                sawTemp = (try FileManager.default.contentsOfDirectory(atPath: outDir.path)).contains { $0.contains(".tmp-") }
            }
            XCTAssertTrue(sawTemp, "the export never created its temporary file")
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outDir.path), [], "signal \(sig)")
        }
    }

    /// --now of nan, inf, 1e300 or 9.3e18 trapped in the relative-date code.
    func testNowIsValidated() throws {
        for now in ["nan", "inf", "-inf", "1e300", "9.3e18"] {
            for command in [["layout"], ["preview"], ["query", "--at", "0"], ["render", "-o", "/dev/null"], ["bench", "--min-rows", "1", "--reps", "1"]] {
                let r = try FeedlayoutBinary.run(command + ["--now", now])
                XCTAssertEqual(r.status, 2, "\(command) --now \(now): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("--now"), r.stderr)
            }
        }
        XCTAssertEqual(try FeedlayoutBinary.run(["query", "--at", "0", "--now", "1700000000"]).status, 0)
    }

    /// A path that is a pipe or a FIFO was opened twice (once to detect the format): the second
    /// open found the data gone (0 statuses, exit 0) or waited for a writer forever.
    func testPipesAndFIFOsAreReadOnce() throws {
        let feed = try FeedlayoutBinary.run(["generate", "--count", "40", "--seed", "3", "--format", "jsonl"])
        XCTAssertEqual(feed.status, 0, feed.stderr)
        let file = dir.appendingPathComponent("g.jsonl")
        try feed.stdout.write(to: file)
        let fromFile = try FeedlayoutBinary.run(["layout", file.path, "--format", "jsonl", "--width", "320", "--width", "375"])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        for (command, expected) in [
            (["validate"], "40 statuses"), (["heights"], #""rows":40"#), (["layout", "--format", "jsonl"], nil),
            (["layout", "--format", "jsonl", "--width", "320", "--width", "375"], nil),
        ] {
            let fifo = dir.appendingPathComponent("f-\(UUID().uuidString)").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let writer = Thread {
                if let h = FileHandle(forWritingAtPath: fifo) {
                    h.write(feed.stdout)
                    try? h.close()
                }
            }
            writer.start()
            let r = try FeedlayoutBinary.run(command + [fifo])
            XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
            if let expected {
                XCTAssertTrue(String(decoding: r.stdout, as: UTF8.self).contains(expected), "\(command): \(String(decoding: r.stdout, as: UTF8.self))")
            } else {
                let lines = r.stdout.split(separator: UInt8(ascii: "\n")).count
                let fileLines = command.filter { $0 == "--width" }.count == 2 ? fromFile.stdout.split(separator: UInt8(ascii: "\n")).count : 40
                XCTAssertEqual(lines, fileLines, "\(command)")
            }
        }
    }

    /// A row origin near Int64.max overflowed (a trap, exit 132, and a temporary file left
    /// behind); a width under a point was written as 0, which the schema refuses.
    func testRowOriginAndWidthAreInRange() throws {
        for (args, option) in [
            (["layout", "--format", "jsonl", "--row-origin", "9223372036854775807"], "--row-origin"),
            (["layout", "--row-origin", "1000000000000000"], "--row-origin"),
            (["layout", "--width", "0.0004"], "--width"), (["heights", "--width", "0.5"], "--width"),
        ] {
            let r = try FeedlayoutBinary.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(option), r.stderr)
        }
        let ok = try FeedlayoutBinary.run(["layout", "--format", "jsonl", "--row-origin", "999999999999999", "--width", "1"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    /// measure printed "inf" (invalid JSON) for a font size of 1e308.
    func testMeasureWritesOnlyValidJSON() throws {
        let input = try write("m.jsonl", #"{"id":"a","text":"hello","font_size":1e308,"width":300}"# + "\n")
        let r = try FeedlayoutBinary.run(["measure", input])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertFalse(String(decoding: r.stdout, as: UTF8.self).contains("inf"))
        let ok = try write("ok.jsonl", #"{"id":"b","text":"hello world","font_size":10000,"width":1000000}"# + "\n")
        let good = try FeedlayoutBinary.run(["measure", ok])
        XCTAssertEqual(good.status, 0, good.stderr)
        for line in good.stdout.split(separator: UInt8(ascii: "\n")) {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line)), String(decoding: line, as: UTF8.self))
        }
    }

    /// measure took `true` as the number 1, ignored a `line_height` of the wrong type, and put the
    /// line number in place of an id of the wrong type.
    func testMeasureFieldsOfTheWrongTypeAreErrors() throws {
        for (line, field) in [
            (#"{"id":"a","text":"x","font_size":true,"width":300}"#, "font_size"),
            (#"{"id":"a","text":"x","font_size":15,"width":false}"#, "width"),
            (#"{"id":"a","text":"x","font_size":15,"width":300,"line_height":"40"}"#, "line_height"),
            (#"{"id":{"x":1},"text":"x","font_size":15,"width":300}"#, "id"),
            (#"{"id":true,"text":"x","font_size":15,"width":300}"#, "id"),
        ] {
            let input = try write("t-\(field).jsonl", line + "\n")
            let r = try FeedlayoutBinary.run(["measure", input])
            XCTAssertEqual(r.status, 1, "\(line): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("\"\(field)\""), r.stderr)
            XCTAssertTrue(r.stdout.isEmpty, "\(line): no partial output")
        }
        let ok = try write("ok2.jsonl", #"{"id":7,"text":"x","font_size":15,"width":300,"line_height":null}"# + "\n")
        let good = try FeedlayoutBinary.run(["measure", ok])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(String(decoding: good.stdout, as: UTF8.self).contains(#""id": "7""#), String(decoding: good.stdout, as: UTF8.self))
    }

    /// measure read its lines with Foundation's parser: the last of duplicate keys won silently,
    /// and a number past the range of a double (1e400) was "not a JSON object" without the field.
    /// Its lines are read by the feeds' parser: duplicates are refused, and the field is named.
    func testMeasureRefusesDuplicateKeysAndNamesOutOfRangeNumbers() throws {
        for (line, expected) in [
            (#"{"id":"a","text":"x","font_size":15,"width":300,"width":20}"#, #"duplicate key "width""#),
            (#"{"id":"a","text":"x","text":"y","font_size":15,"width":300}"#, #"duplicate key "text""#),
            (#"{"id":"a","text":"x","font_size":15,"width":1e400}"#, #"field "width""#),
            (#"{"id":"a","text":"x","font_size":-1e400,"width":300}"#, #"field "font_size""#),
            (#"{"id":"a","text":"x","font_size":15,"width":300,"line_height":1e999}"#, #"field "line_height""#),
            (#"[{"id":"a"}]"#, "not a JSON object"),
        ] {
            let input = try write("dup.jsonl", #"{"id":"ok","text":"x","font_size":15,"width":300}"# + "\n" + line + "\n")
            let r = try FeedlayoutBinary.run(["measure", input])
            XCTAssertEqual(r.status, 1, "\(line): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(line): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("dup.jsonl:2"), r.stderr)
            XCTAssertTrue(r.stdout.isEmpty, "\(line): no partial output")
        }
        // A numeric id is kept as written.
        let ok = try write("ids.jsonl", #"{"id":12345678901234567890,"text":"x","font_size":15,"width":300}"# + "\n")
        let good = try FeedlayoutBinary.run(["measure", ok])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(String(decoding: good.stdout, as: UTF8.self).contains(#""id": "12345678901234567890""#))
    }

    /// Results are matched to inputs by id: an id given twice, or a line without one (it takes
    /// its line number) next to a line whose id is that number, gave two results of one id. A
    /// byte-order mark at the start was "not a JSON object".
    func testMeasureIDsAreUniqueAndAByteOrderMarkIsRead() throws {
        for (lines, message) in [
            ([#"{"id":"a","text":"x","font_size":15,"width":300}"#, #"{"id":"a","text":"y","font_size":15,"width":300}"#], #"m.jsonl:2: id "a" is also the id of line 1"#),
            ([#"{"text":"x","font_size":15,"width":300}"#, #"{"id":1,"text":"y","font_size":15,"width":300}"#], #"m.jsonl:2: id "1" is also the id of line 1"#),
        ] {
            let r = try FeedlayoutBinary.run(["measure", try write("m.jsonl", lines.joined(separator: "\n") + "\n")])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
            XCTAssertTrue(r.stdout.isEmpty, "no partial output")
        }
        let bom = try write("bom.jsonl", "\u{FEFF}" + #"{"id":"a","text":"x","font_size":15,"width":300}"# + "\n")
        let ok = try FeedlayoutBinary.run(["measure", bom])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(String(decoding: ok.stdout, as: UTF8.self).contains(#""id": "a""#))
    }

    /// `measure --time --reps 0` was an input error (exit 1), not a usage error; with no input
    /// text it reported a time per character of nothing.
    func testMeasureTimeNeedsRepsAndTexts() throws {
        let empty = try write("empty.jsonl", "")
        let reps = try FeedlayoutBinary.run(["measure", empty, "--time", "--reps", "0"])
        XCTAssertEqual(reps.status, 2, reps.stderr)
        let none = try FeedlayoutBinary.run(["measure", empty, "--time"])
        XCTAssertEqual(none.status, 1, none.stderr)
        XCTAssertTrue(none.stderr.contains("empty.jsonl: no text to time"), none.stderr)
        XCTAssertTrue(none.stdout.isEmpty)
    }

    /// The 427-byte binary plist of the issue (26 arrays sharing each other: 10^25 leaves) used
    /// 8.3 GB and aborted; it is now refused before anything is built.
    func testSharedObjectBombIsRefused() throws {
        var objects: [[UInt8]] = [[0xD1, 1, 2], [0x58] + Array("statuses".utf8)]
        for k in 0..<26 { objects.append(k == 25 ? [0x10, 1] : [0xAF, 0x10, 9] + Array(repeating: UInt8(3 + k), count: 9)) }
        let bomb = BinaryPlistBuilder.file(objects)
        XCTAssertLessThan(bomb.count, 512)  // 10^25 leaves from 410 bytes
        let path = dir.appendingPathComponent("bomb.plist")
        try bomb.write(to: path)
        for command in [["validate"], ["layout"], ["preview"]] {
            let t0 = Date()
            let r = try FeedlayoutBinary.run(command + [path.path])
            print("hardening: shared-object bomb (\(bomb.count) bytes), \(command[0]): \(String(format: "%.3f", Date().timeIntervalSince(t0))) s")
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.contains("expand"), r.stderr)
        }
    }

    /// The preview built the whole range before printing: --width 100000 --rows 0: tried to
    /// allocate 9.1 GB. Now it streams: at --width 40000 it stays near 65 MB, and completes
    /// under a 2 GB address-space limit.
    func testPreviewMemoryDoesNotGrowWithRangeAndWidth() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { throw XCTSkip("no prlimit") }
        // AddressSanitizer reserves terabytes of address space for its shadow memory at start, so
        // an instrumented binary cannot start under the limit at all (`make sanitize`).
        if let me = dlopen(nil, RTLD_NOW), dlsym(me, "__asan_init") != nil {
            throw XCTSkip("built with AddressSanitizer, which cannot start under an address-space limit")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        p.arguments = ["--as=2000000000", try FeedlayoutBinary.url().path, "preview", "Fixtures/feed.plist", "--width", "40000", "--rows", "0:"]
        p.currentDirectoryURL = TestPaths.packageRoot
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    /// A sectioned preview drew each section whole: one status of 4 000 newlines grouped by user
    /// at 40 000 pt took 655 MB (an abort at larger sizes). Sections are drawn in the slices of a
    /// plain feed: under 70 MB, here under a 400 MB address-space limit.
    func testSectionedPreviewIsDrawnInSlices() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { throw XCTSkip("no prlimit") }
        if let me = dlopen(nil, RTLD_NOW), dlsym(me, "__asan_init") != nil {
            throw XCTSkip("built with AddressSanitizer, which cannot start under an address-space limit")
        }
        let text = "a" + String(repeating: "\\n", count: 4_000)
        let input = try write("tall.json", #"{"statuses":[{"id":1,"text":"\#(text)","user":{"id":2,"screen_name":"b"}}]}"#)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        p.arguments = ["--as=400000000", try FeedlayoutBinary.url().path, "preview", input, "--group-by", "user", "--width", "40000", "--color", "never"]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }
}
