import Glibc
import Synchronization

// The terminal in interactive mode: raw input, the alternate screen, and restoring both.
//
// Restoring is the invariant: whatever ends the viewer (q, an error, SIGINT from Ctrl-C, SIGTERM,
// SIGHUP, SIGQUIT), the saved termios settings are put back and the alternate screen is left.
// Signal handlers can only use async-signal-safe calls, so the saved settings live in a static
// buffer written once before the handlers are installed, and the handler restores with
// `tcsetattr` and `write` only, then exits with 128 + the signal number.

/// Saved terminal state for the signal handlers (written before they are installed, then only read).
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var savedValid: sig_atomic_t = 0
private let resizePending = Atomic<Bool>(false)
/// The self-pipe of SIGWINCH: any thread may take the signal, so the handler also writes a byte
/// that wakes the main thread's `poll`.
nonisolated(unsafe) private var wakePipe: (read: Int32, write: Int32) = (-1, -1)

/// The sequence that leaves the viewer's screen: reset colours, show the cursor, leave the
/// alternate screen.
private let leaveSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

private func restoreFromSignal(_ signal: Int32) {
    if savedValid != 0 { tcsetattr(0, TCSAFLUSH, &savedTermios) }
    leaveSequence.withUnsafeBufferPointer { _ = write(1, $0.baseAddress, $0.count) }
    _exit(128 + signal)
}

/// The controlling terminal on standard input and output.
enum Terminal {
    /// True when both standard input and output are terminals.
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Lines and columns of the terminal on standard output (nil when it is not one).
    static func size() -> (lines: Int, columns: Int)? {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return nil }
        return (Int(ws.ws_row), Int(ws.ws_col))
    }

    /// Enters raw mode (no echo, no line editing; signals kept so Ctrl-C raises SIGINT) and the
    /// alternate screen, with handlers that restore the terminal on SIGINT, SIGTERM, SIGHUP and
    /// SIGQUIT and note SIGWINCH.
    static func enter() throws(TerminalPreviewError) {
        guard tcgetattr(0, &savedTermios) == 0 else { throw .terminal(function: "tcgetattr", errno: errno) }
        savedValid = 1
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { install(sig) { restoreFromSignal($0) } }
        if wakePipe.read < 0 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw .terminal(function: "pipe", errno: errno) }
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            wakePipe = (fds[0], fds[1])
        }
        install(SIGWINCH) { _ in
            resizePending.store(true, ordering: .relaxed)
            var byte: UInt8 = 1
            _ = Glibc.write(wakePipe.write, &byte, 1)
        }
        var raw = savedTermios
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else {
            let e = errno
            leave()
            throw .terminal(function: "tcsetattr", errno: e)
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Restores the saved settings, leaves the alternate screen and puts the default signal
    /// actions back. Safe to call more than once.
    static func leave() {
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { signal(sig, SIG_DFL) }
        if savedValid != 0 {
            tcsetattr(0, TCSAFLUSH, &savedTermios)
            savedValid = 0
            leaveSequence.withUnsafeBufferPointer { _ = Glibc.write(1, $0.baseAddress, $0.count) }
        }
    }

    /// True once after each SIGWINCH.
    static func takeResize() -> Bool { resizePending.exchange(false, ordering: .relaxed) }

    /// Writes all of `s` to standard output.
    static func write(_ s: String) {
        var bytes = Array(s.utf8)
        bytes.withUnsafeMutableBufferPointer { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(1, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Waits for input and returns the bytes read; nil when woken by a resize or another signal
    /// (check `takeResize`), empty at end of input.
    static func read() -> [UInt8]? {
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, wakePipe.read >= 0 ? 2 : 1, -1)
        if ready < 0 { return errno == EINTR ? nil : [] }
        var buf = [UInt8](repeating: 0, count: 64)
        if fds[1].revents != 0 {
            while buf.withUnsafeMutableBytes({ Glibc.read(wakePipe.read, $0.baseAddress, 64) }) > 0 {}
            return nil
        }
        let n = buf.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, 64) }
        if n < 0 { return errno == EINTR || errno == EAGAIN ? nil : [] }
        return Array(buf[0..<n])
    }

    private static func install(_ sig: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a resize interrupts the blocking read
        sigaction(sig, &action, nil)
    }
}
