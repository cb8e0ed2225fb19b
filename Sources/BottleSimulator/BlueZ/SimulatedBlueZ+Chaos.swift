// Where the fault injector's plans (Chaos/ChaosPlan.swift) meet the simulated bluetoothd: a plan
// is drawn at each Connect, and struck at its moment, once.
import DBus

extension SimulatedBlueZ {
    /// At Connect: draw this connection's plan. A fault during Connect is BlueZ's own connect
    /// failures: the abort-by-local flip, or the device removed while Connect is pending.
    func planChaos(_ state: inout SimulatorState) {
        state.connectionNumber += 1
        state.chaosFault = nil
        state.chaosCalls = 0
        guard var planner = state.chaos else { return }
        let fault = planner.nextConnection()
        state.chaos = planner
        guard let fault else {
            log("chaos: connection \(state.connectionNumber): no fault (\(planner.faultsLeft) left)")
            return
        }
        log("chaos: connection \(state.connectionNumber): \(fault)")
        state.chaosFault = fault
        if fault.moment == .duringConnect {
            if fault.style == .vanish { state.faults.removeDuringConnect += 1 } else { state.faults.abortOnConnect += 1 }
            state.chaosFault = nil
        }
    }

    /// The link came up: schedule the faults that strike at a time.
    func chaosLinked(_ state: inout SimulatorState) {
        guard let fault = state.chaosFault else { return }
        let connection = state.connectionNumber
        let delay: Duration
        switch fault.moment {
        case .duringResolution: delay = configuration.resolveDelay / 2
        case .afterLink(let ms): delay = .milliseconds(ms)
        default: return
        }
        schedule(after: delay) { [self] state in
            guard state.connectionNumber == connection else { return }
            strikeChaos(&state)
        }
    }

    /// A GATT call arrives: at the planned call, hold its reply and break the link a moment later,
    /// so that the call is in flight. True when the call was held.
    func chaosHolds(_ responder: DBusResponder, _ state: inout SimulatorState) -> Bool {
        guard case .atCall(let n)? = state.chaosFault?.moment else { return false }
        state.chaosCalls += 1
        guard state.chaosCalls == n else { return false }
        state.heldReplies.append(responder)
        let connection = state.connectionNumber
        schedule(after: .milliseconds(20)) { [self] state in
            guard state.connectionNumber == connection else { return }
            strikeChaos(&state)
        }
        return true
    }

    /// Chunk `index` was notified: strike when the plan says "between this chunk and its ACK".
    func chaosStrikesAfterChunk(_ index: Int, _ state: SimulatorState) -> Bool {
        guard case .afterChunk(let k)? = state.chaosFault?.moment else { return false }
        return k == index
    }

    /// Write replies come this much later in a faulted connection.
    func chaosWriteDelay(_ state: SimulatorState) -> Duration {
        state.chaosFault?.writeDelay ?? .zero
    }

    /// Breaks the link as planned (once per connection); a sleeping bottle wakes later, or not.
    func strikeChaos(_ state: inout SimulatorState) {
        guard let fault = state.chaosFault else { return }
        state.chaosFault = nil
        log("fault: chaos: \(fault)")
        if fault.sleeps { state.model.sleep() }
        breakLink(fault.style, pending: fault.replies, reason: "chaos", &state)
        // A held call that the break did not answer (no link was up any more) is failed now.
        for responder in state.heldReplies { responder.fail(BlueZError.failed("Not connected")) }
        state.heldReplies.removeAll()
        if fault.sleeps, let wake = fault.wakeAfter {
            schedule(after: wake) { [self] state in
                log("event: the bottle wakes")
                state.model.wake()
            }
        }
    }
}
