// libdispatch's complaint about a thread priority the process may not take, kept out of the log
// when the process cannot take it.
//
// On Linux, swift-corelibs-libdispatch gives each of its worker threads the nice value of its
// queue's class (`_dispatch_worker_thread` in src/queue.c: `setpriority(PRIO_PROCESS, 0, nice)`,
// from -4 for user-interactive to 10 for background) and, when the kernel refuses, logs "Failed to
// set thread priority for worker thread: pqc=… errno=13" (to syslog, so to the journal). The
// bridge asks for no class (no QoS, no task priority): the refused thread is libdispatch's own
// manager. Without pthread root queues (Linux), the manager queue, which runs every timer and the
// monitor of the thread pool, targets the user-interactive root queue (src/init.c), and the
// monitor is a timer armed when the first worker thread starts (`_dispatch_workq_init_once` in
// src/event/workqueue.c). So every Swift program that runs a task off the main thread asks once
// for nice -4 (measured: `strace -f -e setpriority` of `status` shows one
// `setpriority(PRIO_PROCESS, 0, -4) = -1 EACCES` and only 0 for the others).
//
// The kernel lets a thread lower its nice value only as far as RLIMIT_NICE allows (to 20 - the
// limit; the default limit 0 allows nothing) or with CAP_SYS_NICE. The service has the limit
// (`LimitNICE=-4` in its unit) and root has the capability; a command a person runs as the
// service's user (`sudo -u aquavate aquavate-bridge status`) or as themselves has neither. The
// refused manager thread then keeps its inherited nice value, which changes nothing the bridge
// does; only the error-looking line would remain, once per command. So when nice -4 is out of
// reach, the bridge turns libdispatch's logging off (`LIBDISPATCH_LOG=NO`, which libdispatch
// reads once, at its first log line), unless whoever started it set `LIBDISPATCH_LOG` themselves.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

package enum DispatchPriorityComplaint {
    /// The lowest nice value libdispatch gives a thread (`DISPATCH_NICE_USER_INTERACTIVE`): its
    /// manager thread's.
    package static let managerNice: Int32 = -4

    /// What the kernel looks at when a thread lowers its nice value (`can_nice` in kernel/sched).
    package struct Reach: Equatable, Sendable {
        /// The calling thread's nice value now.
        package var currentNice: Int32
        /// RLIMIT_NICE's soft limit: a thread may go down to 20 - limit.
        package var niceLimit: UInt64
        /// CAP_SYS_NICE in the effective set: any nice value.
        package var mayRenice: Bool

        /// Whether a thread of this process may take `nice`: raising it is always allowed.
        package func allows(_ nice: Int32) -> Bool {
            nice >= currentNice || mayRenice || Int64(20) - Int64(nice) <= Int64(clamping: niceLimit)
        }

        /// This process's, read from the kernel.
        package static func current() -> Reach {
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            var limit = rlimit()
            let soft: UInt64 = getrlimit(__rlimit_resource_t(__RLIMIT_NICE.rawValue), &limit) == 0 ? UInt64(limit.rlim_cur) : 0
            return Reach(currentNice: errno == 0 ? nice : 0, niceLimit: soft, mayRenice: effectiveCapabilities().map(hasSysNice) ?? false)
        }
    }

    /// CAP_SYS_NICE's bit in a capability set.
    static let sysNiceBit: UInt64 = 1 << 23

    static func hasSysNice(_ capabilities: UInt64) -> Bool { capabilities & sysNiceBit != 0 }

    /// The effective capability set, from the `CapEff:` line of /proc/self/status (hex).
    static func effectiveCapabilities(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) -> UInt64? {
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }) else { return nil }
        return UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    /// The value to give `LIBDISPATCH_LOG`, or nil to leave it: "NO" only when libdispatch's
    /// manager thread will be refused its nice value and nobody chose a setting.
    package static func logSetting(reach: Reach, chosen: String?) -> String? {
        chosen == nil && !reach.allows(managerNice) ? "NO" : nil
    }

    /// Call first in `main`, before any task leaves the main thread (libdispatch reads the
    /// variable at its first log line, from the manager thread the first worker thread starts).
    package static func silenceWhenOutOfReach() {
        let chosen = ProcessInfo.processInfo.environment["LIBDISPATCH_LOG"]
        if let setting = logSetting(reach: .current(), chosen: chosen) {
            setenv("LIBDISPATCH_LOG", setting, 0)
        }
    }
}
