import Glibc
import Synchronization

// The terminal in interactive mode: raw input, the alternate screen, and restoring both.
//
// Restoring is the invariant: whatever ends the viewer (q, an error, SIGINT from Ctrl-C, SIGTERM,
// SIGHUP, SIGQUIT, or a crash: a trap, an abort, a fault), the saved termios settings are put
// back and the alternate screen is left.
// Suspending (SIGTSTP from Ctrl-Z) restores the same way before the process stops, and SIGCONT
// (`fg`) enters raw mode and the alternate screen again and asks for a full redraw.
// Signal handlers can only use async-signal-safe calls, so the saved and raw settings live in
// static buffers written before the handlers are installed, and the handlers use `tcsetattr`,
// `write`, `sigaction`, `sigprocmask` and `raise` only (and `_exit` to end).
//
// Keys come from standard input, or from /dev/tty when standard input carries the feed (as
// `less` does), so `cat feed.jsonl | feedlayout preview - -i` browses the piped feed.

/// Saved terminal state for the signal handlers (written before they are installed, then only read).
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var rawTermios = termios()
nonisolated(unsafe) private var savedValid: sig_atomic_t = 0
/// The descriptor keys are read from (and whose settings are changed).
nonisolated(unsafe) private var inputDescriptor: Int32 = 0
private let resizePending = Atomic<Bool>(false)
private let redrawPending = Atomic<Bool>(false)
/// The self-pipe that wakes the main thread's `poll`: written by the SIGWINCH and SIGCONT
/// handlers (any thread may take a signal) and by background work (`Terminal.wake`).
nonisolated(unsafe) private var wakePipe: (read: Int32, write: Int32) = (-1, -1)

/// The sequence that leaves the viewer's screen: reset colours, wrap lines again, show the
/// cursor, leave the alternate screen.
private let leaveSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)
/// The sequence that enters it: the alternate screen, no line wrapping, cursor hidden, cleared.
/// Without wrapping, a line the terminal draws wider than the preview counted (an emoji ZWJ
/// sequence or a flag some terminals give more columns) is cut at the right edge; wrapped, it
/// took a second row and scrolled the whole screen up one line, the title out of sight.
private let enterSequence: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?7l\u{1B}[?25l\u{1B}[H\u{1B}[2J".utf8)

private func writeAll(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buf in
        var offset = 0
        while offset < buf.count {
            let n = Glibc.write(1, buf.baseAddress! + offset, buf.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

private func wakeMainThread() {
    var byte: UInt8 = 1
    if wakePipe.write >= 0 { _ = Glibc.write(wakePipe.write, &byte, 1) }
}

private func restoreFromSignal(_ signal: Int32) {
    if savedValid != 0 { tcsetattr(inputDescriptor, TCSAFLUSH, &savedTermios) }
    writeAll(leaveSequence)
    _exit(128 + signal)
}

/// The actions the crash signals had before the viewer's (the Swift runtime's backtracer, or
/// the default), by signal number: written before the viewer's handlers are installed. A block
/// of its own, not an array: a handler takes an element's address with no uniqueness check.
nonisolated(unsafe) private let actionsBeforeViewer: UnsafeMutablePointer<sigaction> = {
    let block = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
    block.initialize(repeating: sigaction(), count: 32)
    return block
}()

/// A crash (SIGILL from a Swift trap, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE): the terminal
/// given back, then the signal raised again with the action it had before the viewer, so that
/// the process ends as it would have (the runtime's backtrace, its exit status, a core dump).
private func restoreThenCrash(_ signal: Int32) {
    if savedValid != 0 { tcsetattr(inputDescriptor, TCSAFLUSH, &savedTermios) }
    writeAll(leaveSequence)
    sigaction(signal, actionsBeforeViewer + Int(signal), nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    sigprocmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
    // Still running: that action returned (a handler that expects a faulting instruction to run
    // again, where the signal was sent by `kill`). The default action ends the process.
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&fallback.sa_mask)
    sigaction(signal, &fallback, nil)
    raise(signal)
    _exit(128 + signal)
}

/// SIGTSTP: give the terminal back as it was, then stop with the default action; when continued,
/// the SIGCONT handler has re-entered raw mode and the handler is put back.
private func suspendFromSignal(_ signal: Int32) {
    let saved = errno
    if savedValid != 0 {
        tcsetattr(inputDescriptor, TCSADRAIN, &savedTermios)
        writeAll(leaveSequence)
    }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(SIGTSTP, &action, nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTSTP)
    sigprocmask(SIG_UNBLOCK, &set, nil)
    raise(SIGTSTP)
    // Continued: the handler again.
    action.__sigaction_handler.sa_handler = suspendFromSignal
    sigaction(SIGTSTP, &action, nil)
    errno = saved
}

/// SIGCONT: raw mode and the alternate screen again, and a redraw.
private func resumeFromSignal(_ signal: Int32) {
    let saved = errno
    if savedValid != 0 {
        tcsetattr(inputDescriptor, TCSADRAIN, &rawTermios)
        writeAll(enterSequence)
        redrawPending.store(true, ordering: .relaxed)
        resizePending.store(true, ordering: .relaxed)
        wakeMainThread()
    }
    errno = saved
}

/// What waiting for input gave.
enum TerminalInput {
    /// Bytes typed.
    case bytes([UInt8])
    /// A resize, a resume, background work, or another signal: check `takeResize`, `takeRedraw`.
    case woken
    /// The end of input (the terminal is gone).
    case end
}

/// The controlling terminal: output on standard output, keys from standard input or /dev/tty.
enum Terminal {
    /// Reads keys from /dev/tty instead of standard input (which carries the feed).
    /// - Throws: `.notATerminal` when there is no controlling terminal.
    static func readKeysFromControllingTerminal() throws(TerminalPreviewError) {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw .notATerminal }
        inputDescriptor = fd
    }

    /// True when standard output and the key input are terminals.
    static var isInteractive: Bool { isatty(inputDescriptor) == 1 && isatty(1) == 1 }

    /// Lines and columns of the terminal on standard output (nil when it is not one).
    static func size() -> (lines: Int, columns: Int)? {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return nil }
        return (Int(ws.ws_row), Int(ws.ws_col))
    }

    /// The signals of a crash, after which the terminal is given back before the process ends.
    private static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Enters raw mode (no echo, no line editing; signals kept so Ctrl-C raises SIGINT and Ctrl-Z
    /// SIGTSTP) and the alternate screen, with handlers that restore the terminal on SIGINT,
    /// SIGTERM, SIGHUP and SIGQUIT and on a crash, suspend and resume on SIGTSTP and SIGCONT, and
    /// note SIGWINCH.
    /// Keys typed before are kept (read as the first input), not discarded.
    static func enter() throws(TerminalPreviewError) {
        guard tcgetattr(inputDescriptor, &savedTermios) == 0 else { throw .terminal(function: "tcgetattr", errno: errno) }
        var raw = savedTermios
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        rawTermios = raw
        savedValid = 1
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { install(sig) { restoreFromSignal($0) } }
        for sig in Self.crashSignals {
            sigaction(sig, nil, actionsBeforeViewer + Int(sig))
            install(sig) { restoreThenCrash($0) }
        }
        if wakePipe.read < 0 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw .terminal(function: "pipe", errno: errno) }
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            wakePipe = (fds[0], fds[1])
        }
        install(SIGWINCH) { _ in
            resizePending.store(true, ordering: .relaxed)
            wakeMainThread()
        }
        install(SIGTSTP) { suspendFromSignal($0) }
        install(SIGCONT) { resumeFromSignal($0) }
        guard tcsetattr(inputDescriptor, TCSADRAIN, &rawTermios) == 0 else {
            let e = errno
            leave()
            throw .terminal(function: "tcsetattr", errno: e)
        }
        writeAll(enterSequence)
    }

    /// Restores the saved settings, leaves the alternate screen and puts the default signal
    /// actions back (for the crash signals, the actions they had before). Safe to call more than
    /// once.
    static func leave() {
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT] { signal(sig, SIG_DFL) }
        if savedValid != 0 {
            for sig in Self.crashSignals { sigaction(sig, actionsBeforeViewer + Int(sig), nil) }
            tcsetattr(inputDescriptor, TCSAFLUSH, &savedTermios)
            savedValid = 0
            writeAll(leaveSequence)
        }
    }

    /// True once after each SIGWINCH (and after a resume: the size may have changed meanwhile).
    static func takeResize() -> Bool { resizePending.exchange(false, ordering: .relaxed) }

    /// True once after each resume (SIGCONT): the screen must be drawn again whole.
    static func takeRedraw() -> Bool { redrawPending.exchange(false, ordering: .relaxed) }

    /// Wakes the thread waiting in `read` (from any thread).
    static func wake() { wakeMainThread() }

    /// Writes all of `s` to standard output.
    static func write(_ s: String) { writeAll(Array(s.utf8)) }

    /// Waits for input, a signal or a wake-up.
    static func read() -> TerminalInput {
        var fds = [
            pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, wakePipe.read >= 0 ? 2 : 1, -1)
        if ready < 0 { return errno == EINTR ? .woken : .end }
        var buf = [UInt8](repeating: 0, count: 256)
        if fds.count > 1 && fds[1].revents != 0 {
            while buf.withUnsafeMutableBytes({ Glibc.read(wakePipe.read, $0.baseAddress, 256) }) > 0 {}
            if fds[0].revents == 0 { return .woken }
        }
        let n = buf.withUnsafeMutableBytes { Glibc.read(inputDescriptor, $0.baseAddress, 256) }
        if n < 0 { return errno == EINTR || errno == EAGAIN || errno == EIO ? .woken : .end }
        if n == 0 { return .end }
        return .bytes(Array(buf[0..<n]))
    }

    private static func install(_ sig: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a resize interrupts the blocking read
        sigaction(sig, &action, nil)
    }
}
