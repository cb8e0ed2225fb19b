// Everything the simulated bluetoothd and the bottle hold, in one value behind one lock.
import AquavateProtocol
import DBus
import Timekeeping

/// Where the LE link to the bottle stands.
enum LinkPhase: Equatable, Sendable {
    /// No link.
    case idle
    /// Connect() is pending: the central waits for the bottle's advertisement.
    case connecting
    /// Linked; `resolved` once ServicesResolved=true.
    case connected
    /// Disconnect() was called; the link goes down after BlueZ's disconnect timer.
    case disconnecting
}

/// One client's StartNotify on one characteristic. `registered` is false while the device is not
/// connected (BlueZ keeps the session and re-arms it at the next connection).
struct NotifySession: Equatable, Sendable {
    var owner: String
    var registered: Bool
}

/// A discovery filter (Adapter1.SetDiscoveryFilter), per client.
struct DiscoveryFilter: Equatable, Sendable {
    var uuids: [String] = []
    var transport = "auto"

    /// Whether the bottle's advertisement passes (its 128-bit service and 0x180F).
    func admits(_ advertised: [String]) -> Bool {
        guard transport != "bredr" else { return false }
        guard !uuids.isEmpty else { return true }
        return uuids.contains { wanted in advertised.contains { AquavateUUID.matches($0, wanted) } }
    }
}

/// The device object, while it exists on D-Bus.
struct DeviceObject: Equatable, Sendable {
    /// Never connected: BlueZ drops it `TemporaryTimeout` after discovery stops.
    var temporary = true
    var rssiShown = true
    var servicesResolved = false
    var connectedShown = false
    var battery1 = false
    var uuids: [String]
    var removalDue: MonotonicInstant?
}

/// Faults still to fire.
struct FaultBudget: Sendable {
    var dropAfterChunk: Int?
    var sleepMidSync: Int?
    var vanishMidSync: Int?
    var sleepInReply: Int?
    var inProgress = 0
    var notConnected = 0
    var abortOnConnect = 0
    var unknownObject = 0
    var removeDuringConnect = 0
    var slowWrites: Duration?
    var mtu = 247
    var staleCache = false
    var earlyResolved = false
    var notifyBeforeReply = false
    var powerCycleAt: MonotonicInstant?
    /// Discoveries still to be deaf (F16).
    var deafScanner = 0
    /// The fault injector's seed.
    var chaosSeed: UInt64?
    /// The hostile bottle's seed.
    var hostileSeed: UInt64?
    /// Every chunk announces 255 chunks (`bad-total`).
    var badTotal = false

    init(_ faults: [SimulatorFault], startedAt start: MonotonicInstant) {
        for fault in faults {
            switch fault {
            case .dropAfterChunk(let k): dropAfterChunk = k
            case .sleepMidSync(let k): sleepMidSync = k
            case .vanishMidSync(let k): vanishMidSync = k
            case .sleepInReply(let k): sleepInReply = k
            case .mtu(let n): mtu = min(n, 247)
            case .slowWrites(let ms): slowWrites = .milliseconds(ms)
            case .inProgress(let n): inProgress += n
            case .abortOnConnect(let n): abortOnConnect += n
            case .notConnected(let n): notConnected += n
            case .unknownObject(let n): unknownObject += n
            case .removeDuringConnect(let n): removeDuringConnect += n
            case .powerCycleAt(let seconds): powerCycleAt = start + .milliseconds(Int64(seconds * 1000))
            case .staleCache: staleCache = true
            case .earlyResolved: earlyResolved = true
            case .notifyBeforeReply: notifyBeforeReply = true
            case .deafScanner(let n): deafScanner += n
            case .chaos(let seed): chaosSeed = seed
            case .hostile(let seed): hostileSeed = seed
            case .badTotal: badTotal = true
            case .wedge, .unchangedUnsynced, .adapterOff, .noAdvertise, .oddRecord: break
            }
        }
    }

    /// Takes one from a counted fault; true when it fires.
    static func take(_ budget: inout Int) -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        return true
    }
}

struct SimulatorState: Sendable {
    var model: BottleModel
    var powered: Bool
    var discoveryClients: Set<String> = []
    var filters: [String: DiscoveryFilter] = [:]
    var discovering = false
    /// This discovery hears nothing (the deaf-scanner fault, docs/bluez.md F16).
    var scannerDeaf = false
    var nextAdvertisement: MonotonicInstant?
    /// Advertising slots that passed while discovering, heard or not (tests wait on it).
    var advertisementSlots = 0
    var device: DeviceObject?
    var link = LinkPhase.idle
    var pendingConnect: DBusResponder?
    var connectDeadline: MonotonicInstant?
    var pendingDisconnects: [DBusResponder] = []
    /// Replies to hand out once the device is gone (RemoveDevice of a connected device).
    var pendingRemovals: [DBusResponder] = []
    /// Whether the GATT objects are on D-Bus, and which services.
    var exportedServices: [ServiceLayout] = []
    var gattReady = false
    var sessions: [DBusObjectPath: [NotifySession]] = [:]
    var notifying: [DBusObjectPath: Bool] = [:]
    var valueShown: Set<DBusObjectPath> = []
    var writesInFlight: Set<DBusObjectPath> = []
    var inFlightReplies: [DBusObjectPath: DBusResponder] = [:]
    /// GATT calls held by the fault injector, answered when the link breaks.
    var heldReplies: [DBusResponder] = []
    /// The fault injector (`chaos=SEED`), this connection's planned fault and its GATT calls.
    var chaos: ChaosPlanner?
    var chaosFault: ChaosFault?
    var chaosCalls = 0
    /// The hostile bottle's generator (`hostile=SEED`); nil for an honest bottle.
    var hostile: SeededGenerator?
    /// Counts connections, so a fault scheduled for one never strikes the next.
    var connectionNumber = 0
    /// bluetoothd is restarting: off the bus, nothing advertises to it.
    var restarting = false
    /// The index of the last Drink Data chunk notified (which chunk a sync-control write ACKs).
    var lastChunkNotified: Int?
    var faults: FaultBudget
    var persistedRevision: (Int, Bool)?
    var stopped = false
    /// The bottle's store and link shared with other rooms' simulators (`--shared-bottle`).
    var shared: SharedBottle?

    /// The bottle advertises while awake and not linked (docs/protocol.md 1.3).
    /// A bottle linked to another room's central advertises to nobody.
    var bottleAdvertising: Bool {
        model.isAwake && !restarting && (link == .idle || link == .connecting) && shared?.linkedElsewhere != true
    }
}
