// The hands of the test: things the world does to the bottle (a drink, a sleep, a wake, walking out
// of range), callable in-process and over D-Bus on `org.aquavate.Simulator1` at `/` (outside the
// ObjectManager's tree, so BlueZ clients never see it).
import AquavateProtocol
import DBus
import Foundation

extension SimulatedBlueZ {
    func simulatorInterface() -> ExportedInterface {
        func action(_ name: String, _ body: @escaping @Sendable (SimulatedBlueZ) -> Void) -> ExportedMethod {
            ExportedMethod(name, handler: .immediate { [self] call in
                logCall(call)
                body(self)
                return []
            })
        }
        return ExportedInterface(Interface.simulator, methods: [
            ExportedMethod("AddDrink", input: "q", output: "u", inputNames: ["amount_ml"], outputNames: ["record_id"],
                           handler: .immediate { [self] call in
                               logCall(call)
                               return [.uint32(addDrink(amountML: Int(call.arguments[0].uint16 ?? 0))?.recordID ?? 0)]
                           }),
            action("Sleep") { $0.sleep() },
            action("Wake") { $0.wake() },
            action("DropLink") { $0.dropLink() },
            action("Vanish") { $0.vanish() },
            ExportedMethod("SetBattery", input: "y", inputNames: ["percent"], handler: .immediate { [self] call in
                logCall(call)
                mutate { $0.model.setBattery(call.arguments[0].byte ?? 0) }
                return []
            }),
            ExportedMethod("State", output: "s", outputNames: ["json"], handler: .immediate { [self] call in
                logCall(call)
                let snapshot = mutate { BottleStateSnapshot(model: $0.model, connected: $0.link == .connected) }
                return [.string(String(decoding: snapshot?.json() ?? Data(), as: UTF8.self))]
            }),
        ])
    }

    /// The user drinks: recorded as the firmware would, then the snapshot is rebuilt (and notified
    /// when the daily total changed). A sleeping bottle is woken by being picked up.
    @discardableResult
    func addDrink(amountML: Int) -> DrinkRecord? {
        mutate { state -> DrinkRecord? in
            let (record, events) = state.model.drink(amountML: amountML)
            log("event: drink of \(amountML) ml" + (record.map { ": record \($0.recordID)" } ?? " (not recorded)"))
            for event in events { deliver(event, &state) }
            return record
        } ?? nil
    }

    /// Deep sleep: a connected central sees a supervision time-out; advertising stops.
    func sleep() {
        mutate { state in
            log("event: the bottle falls asleep")
            state.model.sleep()
            supervisionTimeout(&state)
        }
    }

    /// A motion wake: the bottle advertises again.
    func wake() {
        mutate { state in
            log("event: the bottle wakes")
            state.model.wake()
        }
    }

    /// The bottle walks out of range and comes back: a supervision time-out, still awake.
    func dropLink() {
        mutate { supervisionTimeout(&$0) }
    }

    /// The device object disappears with no Connected=false (RemoveDevice, bluetoothd restart).
    func vanish() {
        mutate { vanish(&$0) }
    }
}
