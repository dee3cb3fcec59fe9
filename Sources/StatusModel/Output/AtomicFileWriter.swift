// Output files. One type owns them, so that every command writes the same way:
//
// - a regular file (or a new path) is written through a temporary sibling renamed over it on
//   `commit()`: a failing run leaves the old file untouched. The temporary file is created with
//   the mode of the file it replaces (a new file gets 0666 minus the umask), so replacing a file
//   keeps its rights; a file the user cannot write is refused (root can write any file, as with
//   `cp`). A symbolic link to a regular file is followed: the file it names is replaced, the link
//   stays.
// - anything else that exists (a device such as /dev/null, a pipe, a socket, /dev/stdout) is
//   opened and written directly: renaming over it would replace the device node or the link.
//   A directory is refused.
// - SIGINT, SIGTERM and SIGHUP remove the temporary files of writers not yet committed before
//   the process dies of the signal (handlers installed with the first writer, only where the
//   signal still has its default action).
//
// Every write checks its result: a short or failed write (ENOSPC, EBADF, EIO) is an error naming
// the file, never a crash and never a silent success.
import FeedLayoutSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to a file descriptor, retrying short writes and EINTR.
package enum DescriptorOutput {
    /// - Throws: `.unwritable(file: name, …)` with the system's reason.
    package static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, name: String) throws(StatusModelError) {
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Foundation.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw .unwritable(file: name, reason: String(cString: strerror(errno)))
            }
            if n == 0 { throw .unwritable(file: name, reason: "nothing was written") }
            p += n
            left -= n
        }
    }

    /// Writes an array's or a Data's bytes where they are (a copy into an array cost as much
    /// as the write on a 270 MB export).
    package static func write(_ bytes: some ContiguousBytes, to fd: Int32, name: String) throws(StatusModelError) {
        // (A typed-throws closure here crashes the 6.3 compiler: the error is carried out instead.)
        let failure: StatusModelError? = bytes.withUnsafeBytes { b in
            do throws(StatusModelError) { try write(b, to: fd, name: name) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Standard output, for errors: `<stdout>`.
    package static let standardOutputName = "<stdout>"

    /// Writes to standard output (file descriptor 1).
    package static func writeStandardOutput(_ bytes: some ContiguousBytes) throws(StatusModelError) {
        try write(bytes, to: 1, name: standardOutputName)
    }
}

/// Writes one output file: atomically for regular files, directly for devices and pipes (see the
/// file comment). Drop it uncommitted and nothing changes at the destination.
package final class AtomicFileWriter {
    private let fd: Int32
    /// The temporary file, nil when writing directly.
    private let tempPath: String?
    /// Where the file ends up (the target of a symbolic link).
    private let finalPath: String
    private let name: String
    private var slot: Int?
    private var closed = false
    private var committed = false

    /// - Throws: `.unwritable` for a directory, a file the user may not write, or a directory
    ///   where no temporary file can be created.
    package init(url: URL) throws(StatusModelError) {
        let path = url.path
        name = url.pathAsGiven
        var st = stat()
        if stat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR { throw .unwritable(file: name, reason: "is a directory") }
            if type != S_IFREG {
                // A device, a pipe, a socket: written in place.
                let d = open(path, O_WRONLY | O_CLOEXEC)
                guard d >= 0 else { throw .unwritable(file: name, reason: String(cString: strerror(errno))) }
                fd = d
                tempPath = nil
                finalPath = path
                return
            }
            if geteuid() != 0 && access(path, W_OK) != 0 {
                throw .unwritable(file: name, reason: "permission denied (the file is not writable)")
            }
        }
        // A link to a regular file: replace the file it names, keep the link.
        var target = path
        var lst = stat()
        if lstat(path, &lst) == 0, (lst.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        finalPath = target
        let dir = (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        let temp = (dir.isEmpty ? "." : dir) + "/.\(base).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let exists = stat(target, &st) == 0
        // Registered before it exists: a signal between its creation and its registration left
        // it behind (any thread may take the signal, so blocking it here would not do). Removing
        // a name that is not there yet is harmless; the name is this process's, and unused
        // (O_EXCL).
        let registered = TemporaryFiles.register(temp)
        let d = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard d >= 0 else {
            let reason = String(cString: strerror(errno))
            if let registered { TemporaryFiles.unregister(registered) }
            throw .unwritable(file: name, reason: "cannot create a temporary file in \(dir.isEmpty ? "." : dir): \(reason)")
        }
        fd = d
        tempPath = temp
        slot = registered
        if exists {
            // The replaced file's rights (and owner, where allowed) pass to the new one.
            _ = fchown(d, st.st_uid, st.st_gid)
            if fchmod(d, st.st_mode & 0o7777) != 0 {
                let reason = String(cString: strerror(errno))
                discard()
                throw .unwritable(file: name, reason: "cannot keep the file's mode: \(reason)")
            }
        }
    }

    package func write(_ bytes: some ContiguousBytes) throws(StatusModelError) {
        try DescriptorOutput.write(bytes, to: fd, name: name)
    }

    /// Flushes and renames the temporary file over the destination (closes a direct output).
    package func commit() throws(StatusModelError) {
        guard !committed else { return }
        if let tempPath {
            if fsync(fd) != 0 && errno != EINVAL {
                let reason = String(cString: strerror(errno))
                discard()
                throw .unwritable(file: name, reason: reason)
            }
            closed = true
            if close(fd) != 0 {
                let reason = String(cString: strerror(errno))
                discard()
                throw .unwritable(file: name, reason: reason)
            }
            if rename(tempPath, finalPath) != 0 {
                let reason = String(cString: strerror(errno))
                discard()
                throw .unwritable(file: name, reason: reason)
            }
            if let slot { TemporaryFiles.unregister(slot) }
            slot = nil
        } else {
            closed = true
            if close(fd) != 0 { throw .unwritable(file: name, reason: String(cString: strerror(errno))) }
        }
        committed = true
    }

    private func discard() {
        if !closed {
            closed = true
            close(fd)
        }
        if let tempPath { unlink(tempPath) }
        if let slot { TemporaryFiles.unregister(slot) }
        slot = nil
    }

    deinit {
        if !committed { discard() }
    }
}

/// The temporary files of uncommitted writers, removed by the signal handlers. Fixed slots of
/// preallocated C strings: a handler may only call async-signal-safe functions (`unlink`), so it
/// reads the slots without a lock; registration takes one.
enum TemporaryFiles {
    static let capacity = 64
    static let pathBytes = 4096
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let s = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        s.initialize(repeating: nil, count: capacity)
        return s
    }()
    nonisolated(unsafe) static let buffers: UnsafeMutablePointer<CChar> = .allocate(capacity: capacity * pathBytes)
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// Registers `path`; returns its slot (nil when every slot is taken or the path is too long:
    /// the file is then only removed by the writer itself).
    static func register(_ path: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if !installed {
            installed = true
            for sig in [SIGINT, SIGTERM, SIGHUP] { installHandler(sig) }
        }
        let bytes = Array(path.utf8)
        guard bytes.count < pathBytes else { return nil }
        for i in 0..<capacity where slots[i] == nil {
            let buf = buffers + i * pathBytes
            for (k, b) in bytes.enumerated() { buf[k] = CChar(bitPattern: b) }
            buf[bytes.count] = 0
            slots[i] = buf
            return i
        }
        return nil
    }

    static func unregister(_ slot: Int) {
        lock.lock()
        slots[slot] = nil
        lock.unlock()
    }

    /// Installs the clean-up handler for `sig` when the signal has its default action.
    private static func installHandler(_ sig: Int32) {
        var old = sigaction()
        guard sigaction(sig, nil, &old) == 0, old.__sigaction_handler.sa_handler == nil else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            for i in 0..<TemporaryFiles.capacity {
                if let p = TemporaryFiles.slots[i] { unlink(p) }
            }
            signal(sig, SIG_DFL)
            raise(sig)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(sig, &action, nil)
    }
}
