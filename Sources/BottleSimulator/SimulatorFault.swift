// The faults the simulator can inject (docs/design.md 4; docs/bluez.md 5 and 7), as `--fault NAME[=ARG]`.
//
// Counted faults (`in-progress=N`, …) hit the first N matching calls; chunk faults fire once, on
// the first sync that reaches chunk K, so that the next sync can succeed.

package enum SimulatorFault: Hashable, Sendable, CustomStringConvertible {
    /// The link is lost right after chunk K is notified (and its write answered): a supervision
    /// time-out, `Connected=false`, the device object stays; the bottle stays awake.
    case dropAfterChunk(Int)
    /// The bottle falls asleep after chunk K: a supervision time-out (object stays), all RAM state
    /// lost, no advertising until woken.
    case sleepMidSync(Int)
    /// After chunk K the device object is removed (InterfacesRemoved) with no `Connected=false`,
    /// as after RemoveDevice or a bluetoothd restart.
    case vanishMidSync(Int)
    /// The bottle falls asleep on the ACK of chunk K while that write's reply is pending; BlueZ
    /// shows it as an independently written BlueZ model does: Connected=false and ServicesResolved=false
    /// in one signal, every GATT object removed, the device kept, THEN the write answered OK. The
    /// bottle advertises again a second later.
    case sleepInReply(Int)
    /// The negotiated ATT MTU (default 247; the bottle caps it at 247).
    case mtu(Int)
    /// The newest unsynced record is deleted-but-unsynced (B2 example 2).
    case wedge
    /// The forced Current State after a sync still reports the old unsynced_count.
    case unchangedUnsynced
    /// Every write's reply is delayed this long (notifications still come first).
    case slowWrites(milliseconds: Int)
    /// The first N ReadValue/WriteValue calls fail with org.bluez.Error.InProgress.
    case inProgress(Int)
    /// The first N Connect calls fail with Failed "le-connection-abort-by-local", with BlueZ's flip.
    case abortOnConnect(Int)
    /// The first N GATT calls (ReadValue, WriteValue, StartNotify) fail with org.bluez.Error.NotConnected.
    case notConnected(Int)
    /// The first N Connect calls find the device object gone: it is removed, and the call gets
    /// org.freedesktop.DBus.Error.UnknownObject.
    case unknownObject(Int)
    /// The first N Connect calls see the device removed while they are pending (Failed "Device removed").
    case removeDuringConnect(Int)
    /// The adapter starts powered off (settable through Adapter1.Powered).
    case adapterOff
    /// The adapter is powered off at this many seconds after start, and on again a second later.
    case powerCycleAt(seconds: Double)
    /// After ServicesResolved the Aquavate service is missing (stale cache) until RemoveDevice.
    case staleCache
    /// ServicesResolved=true comes before the GATT objects, which appear ~0.2 s later (bluez#1489).
    case earlyResolved
    /// Enabling notifications makes the bottle notify its value before the StartNotify reply.
    case notifyBeforeReply
    /// The bottle is asleep at start: it does not advertise until woken.
    case noAdvertise
    /// The scanner goes silent (docs/bluez.md F16): the first N discoveries report no advertisement
    /// although `Discovering` is true; a discovery started again after them hears the bottle.
    case deafScanner(Int)
    /// The seeded fault injector: up to four connections broken at random instants in
    /// random ways BlueZ shows (ChaosPlan.swift); the same seed gives the same plans.
    case chaos(seed: UInt64)
    /// A hostile bottle (buggy firmware, a spoofed address): chunks bent at random, seeded, and
    /// floods of Current State with a flickering low-battery flag.
    case hostile(seed: UInt64)
    /// A record the firmware really produces that cannot be a drink (B9, TV11), mixed into the
    /// ring among the ordinary ones (`OddRecord`); repeat the fault for several.
    case oddRecord(OddRecord)
    /// Every Drink Data chunk announces 255 chunks: a structural fault refused at every
    /// connection, which leaves the bottle stuck (docs/design.md 3.4).
    case badTotal

    /// Name, argument and meaning of every fault, for `--help`.
    package static let catalogue: [(name: String, argument: String?, help: String)] = [
        ("drop-after-chunk", "K", "link lost right after chunk K is notified (Connected=false, object stays, bottle awake)"),
        ("sleep-mid-sync", "K", "bottle falls asleep after chunk K (supervision time-out; silent until woken)"),
        ("vanish-mid-sync", "K", "device object removed after chunk K (InterfacesRemoved, no Connected=false)"),
        ("sleep-in-reply", "K",
         "bottle sleeps on chunk K's ACK, reply pending: Connected/ServicesResolved=false in one signal, GATT objects removed, then the write answered OK; awake 1 s later"),
        ("mtu", "N", "negotiated ATT MTU (default 247; 23 and 185 are useful)"),
        ("wedge", nil, "newest unsynced record is deleted-unsynced (docs/protocol.md B2 example 2)"),
        ("unchanged-unsynced", nil, "forced Current State after a sync repeats the old unsynced_count"),
        ("slow-writes", "MS", "every WriteValue reply is delayed MS milliseconds"),
        ("in-progress", "N", "first N ReadValue/WriteValue calls fail with org.bluez.Error.InProgress"),
        ("abort-on-connect", "N",
         "first N Connect calls: Connected=true, Failed \"le-connection-abort-by-local\", Connected=false"),
        ("not-connected", "N", "first N ReadValue/WriteValue/StartNotify calls fail with org.bluez.Error.NotConnected"),
        ("unknown-object", "N", "first N Connect calls: the device object is removed, Connect gets UnknownObject"),
        ("remove-during-connect", "N", "first N Connect calls: device removed while pending (Failed \"Device removed\")"),
        ("adapter-off", nil, "adapter powered off at start (StartDiscovery: NotReady); set Powered to turn it on"),
        ("power-cycle-at", "SECONDS", "adapter powered off SECONDS after start, on again 1 s later"),
        ("stale-cache", nil, "after ServicesResolved only the standard services exist, until RemoveDevice"),
        ("early-resolved", nil, "ServicesResolved=true before the GATT objects, which follow ~0.2 s later"),
        ("notify-before-reply", nil, "StartNotify: the bottle notifies its value before the reply"),
        ("no-advertise", nil, "bottle asleep at start: not discoverable until woken (Simulator1.Wake)"),
        ("deaf-scanner", "N", "first N discoveries hear no advertisement though Discovering=true (docs/bluez.md F16)"),
        ("chaos", "SEED",
         "seeded injector: 1-4 connections broken at a random instant (Connect, resolution, a call in flight, chunk/ACK) in a random BlueZ way"),
        ("hostile", "SEED", "hostile bottle: chunks bent at random (counts, totals, ±32767 ml, 1970/2106, noise), Current State floods"),
        ("odd-record", "1970|2000|2106|erased",
         "a record the firmware produces that cannot be a drink, mixed among the ordinary ones: stamped 1970 (wrong SET_TIME), 2000 (RTC reset), 2106, or an erased flash slot (all FF); repeat for several"),
        ("bad-total", nil, "every Drink Data chunk announces 255 chunks: refused at each connection, the bottle ends up stuck"),
    ]

    /// Parses `NAME` or `NAME=ARG`.
    package init(parsing text: String) throws(SimulatorFaultUnknown) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        let argument = parts.count > 1 ? parts[1] : nil
        func count(_ minimum: Int = 0, default value: Int? = nil) throws(SimulatorFaultUnknown) -> Int {
            guard let argument else {
                if let value { return value }
                throw SimulatorFaultUnknown(text: text, reason: "\(name) needs a number: \(name)=N")
            }
            guard let number = Int(argument), number >= minimum else {
                throw SimulatorFaultUnknown(text: text, reason: "\(name) takes a whole number ≥ \(minimum)")
            }
            return number
        }
        func none() throws(SimulatorFaultUnknown) {
            if argument != nil { throw SimulatorFaultUnknown(text: text, reason: "\(name) takes no argument") }
        }
        switch name {
        case "drop-after-chunk": self = .dropAfterChunk(try count())
        case "sleep-mid-sync": self = .sleepMidSync(try count())
        case "vanish-mid-sync": self = .vanishMidSync(try count())
        case "sleep-in-reply": self = .sleepInReply(try count())
        case "mtu":
            let mtu = try count(23)
            guard mtu <= 517 else { throw SimulatorFaultUnknown(text: text, reason: "an ATT MTU is 23…517") }
            self = .mtu(mtu)
        case "wedge": try none(); self = .wedge
        case "unchanged-unsynced": try none(); self = .unchangedUnsynced
        case "slow-writes": self = .slowWrites(milliseconds: try count())
        case "in-progress": self = .inProgress(try count(1, default: 1))
        case "abort-on-connect": self = .abortOnConnect(try count(1, default: 1))
        case "not-connected": self = .notConnected(try count(1, default: 1))
        case "unknown-object": self = .unknownObject(try count(1, default: 1))
        case "remove-during-connect": self = .removeDuringConnect(try count(1, default: 1))
        case "adapter-off": try none(); self = .adapterOff
        case "power-cycle-at":
            guard let argument, let seconds = Double(argument), seconds >= 0 else {
                throw SimulatorFaultUnknown(text: text, reason: "power-cycle-at takes seconds: power-cycle-at=5")
            }
            self = .powerCycleAt(seconds: seconds)
        case "stale-cache": try none(); self = .staleCache
        case "early-resolved": try none(); self = .earlyResolved
        case "notify-before-reply": try none(); self = .notifyBeforeReply
        case "no-advertise": try none(); self = .noAdvertise
        case "deaf-scanner": self = .deafScanner(try count(1, default: 1))
        case "chaos":
            guard let argument, let seed = UInt64(argument) else {
                throw SimulatorFaultUnknown(text: text, reason: "chaos takes a seed: chaos=42")
            }
            self = .chaos(seed: seed)
        case "hostile":
            guard let argument, let seed = UInt64(argument) else {
                throw SimulatorFaultUnknown(text: text, reason: "hostile takes a seed: hostile=7")
            }
            self = .hostile(seed: seed)
        case "bad-total": try none(); self = .badTotal
        case "odd-record":
            guard let argument, let kind = OddRecord(rawValue: argument) else {
                throw SimulatorFaultUnknown(text: text, reason: "odd-record takes one of 1970, 2000, 2106, erased: odd-record=1970")
            }
            self = .oddRecord(kind)
        default: throw SimulatorFaultUnknown(text: text, reason: "no such fault")
        }
    }

    package var description: String {
        switch self {
        case .dropAfterChunk(let k): return "drop-after-chunk=\(k)"
        case .sleepMidSync(let k): return "sleep-mid-sync=\(k)"
        case .vanishMidSync(let k): return "vanish-mid-sync=\(k)"
        case .sleepInReply(let k): return "sleep-in-reply=\(k)"
        case .mtu(let n): return "mtu=\(n)"
        case .wedge: return "wedge"
        case .unchangedUnsynced: return "unchanged-unsynced"
        case .slowWrites(let ms): return "slow-writes=\(ms)"
        case .inProgress(let n): return "in-progress=\(n)"
        case .abortOnConnect(let n): return "abort-on-connect=\(n)"
        case .notConnected(let n): return "not-connected=\(n)"
        case .unknownObject(let n): return "unknown-object=\(n)"
        case .removeDuringConnect(let n): return "remove-during-connect=\(n)"
        case .adapterOff: return "adapter-off"
        case .powerCycleAt(let seconds): return "power-cycle-at=\(seconds)"
        case .staleCache: return "stale-cache"
        case .earlyResolved: return "early-resolved"
        case .notifyBeforeReply: return "notify-before-reply"
        case .noAdvertise: return "no-advertise"
        case .deafScanner(let n): return "deaf-scanner=\(n)"
        case .chaos(let seed): return "chaos=\(seed)"
        case .hostile(let seed): return "hostile=\(seed)"
        case .oddRecord(let kind): return "odd-record=\(kind.rawValue)"
        case .badTotal: return "bad-total"
        }
    }
}

/// A `--fault` value that names no fault or has a bad argument.
package struct SimulatorFaultUnknown: Error, Hashable, Sendable, CustomStringConvertible {
    package var text: String
    package var reason: String
    package var description: String {
        "unknown fault \"\(text)\" (\(reason)); known: "
            + SimulatorFault.catalogue.map { entry in entry.argument.map { "\(entry.name)=\($0)" } ?? entry.name }
            .joined(separator: ", ")
    }
}
