// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The processes below a process, from `/proc`, and what each is doing: what a test's watchdog reports
/// before it kills a program that hangs.
enum ProcessTree {
    /// Every descendant of `root` (children first, then theirs), from each process's parent in `/proc/PID/stat`.
    static func descendants(of root: Int32) -> [Int32] {
        var parents: [Int32: Int32] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let parent = field(4, ofStatOf: pid).flatMap({ Int32($0) }) else { continue }
            parents[pid] = parent
        }
        var found: [Int32] = []
        var frontier = [root]
        while !frontier.isEmpty {
            let children = parents.filter { frontier.contains($0.value) }.map(\.key).sorted()
            found += children
            frontier = children
        }
        return found
    }

    /// One line per process: its id, state, command line, and where each of its threads waits in the kernel.
    static func describe(_ pids: [Int32]) -> String {
        pids.map { pid in
            let command = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "?")
                .split(separator: "\0").joined(separator: " ")
            let threads = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).sorted().map { task in
                let name = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                let channel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "?"
                return "\(name):\(field(3, ofStatOf: pid, task: task) ?? "?"):\(channel)"
            }
            return "  \(pid) [\(field(3, ofStatOf: pid) ?? "?")] \(command.prefix(300)) — threads \(threads.joined(separator: " "))"
        }.joined(separator: "\n")
    }

    /// Field `number` (1-based, as proc(5) counts) of `/proc/PID/stat`, or of one of its tasks.
    private static func field(_ number: Int, ofStatOf pid: Int32, task: String? = nil) -> String? {
        let path = task.map { "/proc/\(pid)/task/\($0)/stat" } ?? "/proc/\(pid)/stat"
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        // After the command name (in parentheses, which may hold spaces): field 3 on.
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        return number >= 3 && number - 3 < rest.count ? String(rest[number - 3]) : nil
    }
}
