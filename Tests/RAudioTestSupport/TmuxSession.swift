// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A real terminal for tests: a tmux server of its own (a private socket), one window of a given size
/// running an interactive bash, driven with `send-keys` and read with `capture-pane`.
///
/// Always torn down: `deinit` kills the server and everything in it.
public final class TmuxSession: @unchecked Sendable {
    public let socket = "raudio-test-\(UUID().uuidString.prefix(8))"

    /// Whether tmux is installed (tests skip without it, but fail when `CI` is set).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts the server with a `columns` x `rows` window running `bash --norc` with the prompt `$ `.
    public init(columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
        var env = ["PS1": "$ ", "TERM": "xterm-256color", "LANG": "C.UTF-8", "RAUDIO_NO_STATE": "1"]
        env.merge(environment) { _, new in new }
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "main",
                  "env -u NO_COLOR -u TMUX \(assignments) bash --norc --noprofile -i"])
        try tmux(["set-option", "-t", "main", "status", "off"])
        _ = waitForScreen(timeout: 5) { $0.contains("$") }
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Types `line` and Enter at the shell.
    public func run(_ line: String) throws {
        try type(line)
        try tmux(["send-keys", "-t", "main", "Enter"])
    }

    /// Sends keys by tmux's names (`Space`, `Left`, `C-z`, `q`, ...).
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "main"] + keys)
    }

    /// Sends `text` as typed characters (as hexadecimal bytes, so that `--` or `-x` are not taken
    /// for options of tmux).
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "main", "-H"] + text.utf8.map { String($0, radix: 16) })
    }

    /// The visible screen, one string per row (trailing spaces trimmed), without escape sequences.
    public func screen() -> [String] {
        ((try? tmux(["capture-pane", "-p", "-t", "main"])) ?? "").components(separatedBy: "\n")
    }

    /// The visible screen with its escape sequences (colours, attributes).
    public func screenWithEscapes() -> String {
        (try? tmux(["capture-pane", "-p", "-e", "-t", "main"])) ?? ""
    }

    /// A tmux format of the pane, such as `#{alternate_on}` (1 while a program uses the alternate
    /// screen) or `#{cursor_flag}` (1 when the cursor is shown).
    public func paneFormat(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", "main", format])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Resizes the window (the program in it gets SIGWINCH).
    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Waits until `condition` holds for the screen text (rows joined by newlines); returns the last screen.
    @discardableResult
    public func waitForScreen(timeout: TimeInterval, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        repeat {
            text = screen().joined(separator: "\n")
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return nil
    }

    /// The last screen, for messages of failed expectations.
    public var lastScreen: String { screen().joined(separator: "\n") }

    /// Runs the tmux client and returns its stdout. Spawned with `posix_spawn` and reaped with
    /// `waitpid`, not with Foundation's `Process`: the server that `new-session` forks off would
    /// inherit `Process`'s descriptors and its exit would never be seen. Descriptors from 3 up are
    /// closed in the child, so the server holds none of the test's pipes either.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-tmux-\(UUID().uuidString)").path
        defer { unlink(outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv = (["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A clean signal mask and default actions: threads of Swift's pool block signals, and a tmux
        // server (and its shell) inheriting that mask would never see SIGHUP, SIGTERM or SIGCHLD, so
        // `kill-server` would leave them running.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        guard status == 0 else { throw TmuxError(message: "tmux could not be started: \(String(cString: strerror(status)))") }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    struct TmuxError: Error {
        var message: String
    }

    /// `text` in single quotes for the shell.
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
