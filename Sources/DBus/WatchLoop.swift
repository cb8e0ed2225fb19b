// The poll(2) loop that drives libdbus's I/O on a connection's owner thread.
//
// libdbus tells us which file descriptors it wants watched and which time-outs it wants run
// through the watch and time-out functions (`dbus_connection_set_watch_functions`, …). This loop
// polls those descriptors plus an eventfd that other threads write to when they queue work, and
// a timerfd armed for the earliest time-out, so an idle connection sleeps in poll() with no
// periodic wake-ups, and a queued job is picked up at once.
//
// libdbus calls the watch and time-out functions from whichever thread is making a libdbus call
// on the connection: the owner thread, or a caller that took the connection's turn to send its
// method call itself (`ConnectionCore.runDirectly`). Both hold the turn while they do, and the
// owner holds it for everything but the poll() itself (`prepare` and `handle` run under it,
// `wait` does not), so this state is only ever touched by the one thread that holds the turn.
// A time-out added while the owner sleeps arms the timerfd, which wakes it when it is due: no
// wake-up of the owner just to shorten its poll.
import CDBus
import Glibc

final class WatchLoop {
    private var watches: [OpaquePointer] = []
    private var timeouts: [(timeout: OpaquePointer, deadline: UInt64)] = []
    /// Written (8 bytes, eventfd semantics) to wake the loop from another thread.
    let wakeFD: Int32
    /// Fires at the earliest enabled time-out's deadline (`armedDeadline`; 0: disarmed).
    private let timerFD: Int32
    private var armedDeadline: UInt64 = 0

    init(wakeFD: Int32, timerFD: Int32) {
        self.wakeFD = wakeFD
        self.timerFD = timerFD
    }

    /// Hands libdbus the watch, time-out and wake-up functions for `connection`. The loop must
    /// outlive the connection's use of them (`uninstall` clears them before it goes).
    func install(on connection: OpaquePointer) -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let watchesOK = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                Unmanaged<WatchLoop>.fromOpaque(data).takeUnretainedValue().watches.append(watch)
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<WatchLoop>.fromOpaque(data).takeUnretainedValue().watches.removeAll { $0 == watch }
            },
            nil,  // toggling needs no bookkeeping: `dbus_watch_get_enabled` is read before each poll
            me, nil)
        let timeoutsOK = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                let loop = Unmanaged<WatchLoop>.fromOpaque(data).takeUnretainedValue()
                let deadline = WatchLoop.deadline(for: timeout)
                loop.timeouts.append((timeout, deadline))
                if dbus_timeout_get_enabled(timeout) != 0 { loop.armNoLaterThan(deadline) }
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<WatchLoop>.fromOpaque(data).takeUnretainedValue().timeouts.removeAll { $0.timeout == timeout }
            },
            { timeout, data in
                // A re-enabled time-out starts its interval again.
                guard let timeout, let data else { return }
                let loop = Unmanaged<WatchLoop>.fromOpaque(data).takeUnretainedValue()
                if let index = loop.timeouts.firstIndex(where: { $0.timeout == timeout }) {
                    let deadline = WatchLoop.deadline(for: timeout)
                    loop.timeouts[index].deadline = deadline
                    if dbus_timeout_get_enabled(timeout) != 0 { loop.armNoLaterThan(deadline) }
                }
            },
            me, nil)
        dbus_connection_set_wakeup_main_function(
            connection,
            { data in
                guard let data else { return }
                Unmanaged<WatchLoop>.fromOpaque(data).takeUnretainedValue().wake()
            },
            me, nil)
        return watchesOK != 0 && timeoutsOK != 0
    }

    func uninstall(from connection: OpaquePointer) {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(connection, nil, nil, nil)
    }

    /// Wakes the poll() from any thread.
    func wake() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(wakeFD, $0.baseAddress, 8) }
    }

    /// What one poll() waits for: the wake-up and timer descriptors, then the enabled watches.
    struct Round {
        fileprivate var fds: [pollfd]
        fileprivate var owners: [OpaquePointer?]
    }

    /// The descriptors to wait on, with the timer armed for the earliest time-out (under the turn).
    func prepare() -> Round {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0), pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0)]
        var owners: [OpaquePointer?] = [nil, nil]
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            owners.append(watch)
        }
        arm(timeouts.filter { dbus_timeout_get_enabled($0.timeout) != 0 }.map(\.deadline).min() ?? 0)
        return Round(fds: fds, owners: owners)
    }

    /// Sleeps until a watched descriptor is ready, the timer fires or `wake()` is called (NOT
    /// under the turn: this is when other threads may make their calls).
    func wait(_ round: inout Round) {
        _ = poll(&round.fds, nfds_t(round.fds.count), -1)
    }

    /// Lets libdbus handle what happened (reading and writing the socket, firing due
    /// time-outs), under the turn.
    func handle(_ round: Round) {
        let fds = round.fds
        if fds[0].revents != 0 { drain(wakeFD) }
        if fds[1].revents != 0 {
            drain(timerFD)
            armedDeadline = 0  // it fired; `prepare` arms it again for what is left
        }
        for index in fds.indices.dropFirst(2) where fds[index].revents != 0 {
            guard let watch = round.owners[index], watches.contains(watch), dbus_watch_get_enabled(watch) != 0 else {
                continue  // removed or disabled by an earlier handler in this round
            }
            let revents = Int32(fds[index].revents)
            var flags: UInt32 = 0
            if revents & Int32(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if revents & Int32(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if revents & Int32(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
            if revents & Int32(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
            _ = dbus_watch_handle(watch, flags)
        }
        fireDueTimeouts()
    }

    /// Arms the timer for `deadline` unless it already fires as early.
    private func armNoLaterThan(_ deadline: UInt64) {
        if armedDeadline == 0 || deadline < armedDeadline { arm(deadline) }
    }

    /// Arms the timer for `deadline` (0: disarms it); a deadline already past fires at once.
    private func arm(_ deadline: UInt64) {
        guard deadline != armedDeadline else { return }
        armedDeadline = deadline
        _ = cdbus_arm_timer_fd(timerFD, deadline)
    }

    private func drain(_ fd: Int32) {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { Glibc.read(fd, $0.baseAddress, 8) }
    }

    private func fireDueTimeouts() {
        let now = WatchLoop.now()
        let due = timeouts.filter { dbus_timeout_get_enabled($0.timeout) != 0 && $0.deadline <= now }.map(\.timeout)
        for timeout in due {
            guard timeouts.contains(where: { $0.timeout == timeout }) else { continue }
            _ = dbus_timeout_handle(timeout)
            // libdbus time-outs repeat until removed.
            if let index = timeouts.firstIndex(where: { $0.timeout == timeout }) {
                timeouts[index].deadline = WatchLoop.deadline(for: timeout)
            }
        }
    }

    private static func deadline(for timeout: OpaquePointer) -> UInt64 {
        // Never 0, which would disarm the timer.
        max(1, now() + UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000)
    }

    /// CLOCK_MONOTONIC in nanoseconds: time-outs must not jump with the wall clock. The kernel's
    /// clock and not the injected one: the timerfd's absolute deadlines are on it, and libdbus's
    /// time-outs are all it serves (the one exception in OneClockTests).
    private static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
