// Helpers for driving the bottle model directly (no D-Bus): a manual clock, canned records and
// shorthand for the writes a client makes.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import Timekeeping

/// A bottle on a manual clock with `records` unsynced drinks (ids 1…n, flags 0).
func makeBottle(records count: Int = 0, configure: (inout BottleModel.Configuration) -> Void = { _ in })
    -> (BottleModel, ManualClock)
{
    let clock = ManualClock()
    var configuration = BottleModel.Configuration()
    configure(&configuration)
    let records = RecordSource.generated(count: count, endingAt: clock.now)
    return (BottleModel(configuration: configuration, records: records, clock: clock), clock)
}

/// A bottle holding exactly these (id, flags) records, oldest first.
func makeBottle(flags: [(UInt32, UInt8)]) -> (BottleModel, ManualClock) {
    let clock = ManualClock()
    let records = flags.enumerated().map { index, entry in
        DrinkRecord(recordID: entry.0, timestamp: UInt32(clock.now.secondsSince1970) - UInt32(1000 * (flags.count - index)),
                    amountML: 100, bottleLevelML: 400, typeRaw: 1, flagsRaw: entry.1)
    }
    return (BottleModel(records: records, clock: clock), clock)
}

extension Array where Element == BottleEvent {
    /// The values notified on `characteristic`, in order.
    func notified(_ characteristic: Characteristic) -> [[UInt8]] {
        compactMap { event in
            if case .notification(characteristic, let value) = event { return value }
            return nil
        }
    }

    /// The Drink Data chunks notified, decoded.
    var chunks: [DrinkDataChunk] { notified(.drinkData).compactMap { try? DrinkDataChunk(decoding: $0) } }

    /// The Current State notifications, decoded.
    var states: [CurrentState] { notified(.currentState).compactMap { try? CurrentState(decoding: $0) } }
}

extension BottleModel {
    mutating func start(count: Int, chunkSize: Int) -> [BottleEvent] {
        write(.syncControl, SyncControl(count: UInt16(count), command: .start, chunkSize: UInt16(chunkSize)).encoded()).events
    }

    mutating func ack() -> [BottleEvent] { write(.syncControl, SyncControl.ack.encoded()).events }
    mutating func query() -> [BottleEvent] { write(.syncControl, SyncControl.query.encoded()).events }
    mutating func command(_ command: Command) -> [BottleEvent] { write(.command, command.encoded()).events }

    mutating func readSyncControl() -> SyncControl { try! SyncControl(decoding: read(.syncControl)) }

    var flagsByID: [UInt32: UInt8] { Dictionary(uniqueKeysWithValues: records.map { ($0.recordID, $0.flagsRaw) }) }
}
