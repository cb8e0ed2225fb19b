// The processes of a browser test: chromedriver, the Chromium it starts and Chromium's own
// children. A WebDriver session that is never quit leaves its Chromium running, and killing
// chromedriver alone orphans it (a CI run was left with one headless Chromium). So at the end of a
// test everything under chromedriver (its process tree and, when it leads one, its process group)
// is killed at once, and the test checks that no Chromium it started is left, by this test
// process's tree and by the test's own profile folder.

import Foundation
import Glibc
import ProcessSupport

enum BrowserProcesses {
    struct Entry: CustomStringConvertible {
        var pid: Int32
        var parent: Int32
        var group: Int32
        var state: Character
        var command: String
        var description: String { "\(pid) (parent \(parent), group \(group), \(state)): \(command.prefix(160))" }
    }

    /// Every process of the machine as /proc shows it now.
    static func all() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> Entry? in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "pid (comm)": state, parent, group (comm may hold spaces and parentheses).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, let state = fields[0].first, let parent = Int32(fields[1]), let group = Int32(fields[2]) else { return nil }
            let raw = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline"))) ?? Data()
            let command = String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return Entry(pid: pid, parent: parent, group: group, state: state, command: command)
        }
    }

    /// `root` and every process below it, as /proc shows them now.
    static func tree(of root: Int32, in processes: [Entry]) -> [Entry] {
        var found = processes.filter { $0.pid == root }
        var frontier: Set<Int32> = [root]
        while !frontier.isEmpty {
            let known = Set(found.map(\.pid))
            let children = processes.filter { entry in frontier.contains(entry.parent) && !known.contains(entry.pid) }
            found += children
            frontier = Set(children.map(\.pid))
        }
        return found
    }

    /// SIGKILL to chromedriver, everything under it and its process group when it leads its own
    /// (never this test process's group), all at once so that nothing is orphaned on the way.
    static func kill(_ driver: ChildProcess) {
        let pid = driver.processIdentifier
        for entry in tree(of: pid, in: all()) where entry.pid != getpid() {
            _ = Glibc.kill(entry.pid, SIGKILL)
        }
        if getpgid(pid) == pid, pid != getpgrp() { _ = Glibc.kill(-pid, SIGKILL) }
        driver.killNow()
    }

    /// SIGKILL to each of `entries` (never this test process).
    static func kill(_ entries: [Entry]) {
        for entry in entries where entry.pid != getpid() { _ = Glibc.kill(entry.pid, SIGKILL) }
    }

    /// The live (not zombie) processes a browser test may have left: a Chromium anywhere below
    /// this test process, or any process that uses the test's own Chromium `profile` folder.
    static func survivors(profile: String) -> [Entry] {
        let processes = all()
        let mine = Set(tree(of: getpid(), in: processes).map(\.pid)).subtracting([getpid()])
        return processes.filter { entry in
            entry.state != "Z" && entry.pid != getpid()
                && ((mine.contains(entry.pid) && (entry.command.contains("chromium") || entry.command.contains("chromedriver")))
                    || entry.command.contains(profile))
        }
    }
}
