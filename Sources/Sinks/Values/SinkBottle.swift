// Who the bottle is, for the sinks that show it as a device (Home Assistant): what the bridge read
// from its Device Information at a connection. Until a bottle is known, no device is announced.

package struct SinkBottle: Sendable, Equatable {
    /// The Bluetooth address, `F4:12:FA:00:A3:F4`.
    package var address: String?
    /// The Device Information serial (the bottle's lasting identifier).
    package var serial: String?
    /// The advertised name, e.g. `Aquavate-A3F2`.
    package var name: String?
    package var firmware: String?
    package var model: String?

    package init(address: String? = nil, serial: String? = nil, name: String? = nil, firmware: String? = nil, model: String? = nil) {
        self.address = address
        self.serial = serial
        self.name = name
        self.firmware = firmware
        self.model = model
    }

    /// Whether there is anything to announce: an address or a serial.
    package var isKnown: Bool { address != nil || serial != nil }
}

/// The state of one bottle command (docs/design.md 3.5), published on `…/command/result`.
package struct SinkCommandResult: Sendable, Equatable {
    package var id: Int64?
    /// `goal`, `delete`, `tare`, `shake-to-empty`.
    package var command: String
    /// `pending`, `applied`, `failed`, or `refused` (never queued).
    package var status: String
    package var message: String?
    /// The bottle's serial or address, where a bridge has several; nil: the bridge's bottle.
    package var bottle: String?
    /// What the command asks, as numbers, as the `command` event has them (docs/design.md 3.4):
    /// a goal's millilitres, a delete's record id, shake-to-empty's on or off. Never the stored text.
    package var goalML: Int?
    package var recordID: Int?
    package var on: Bool?
    /// The last command as the history keeps it, told again when the daemon starts: it is
    /// retained as the last command (Home Assistant's sensor), not answered anew.
    package var isReplay = false

    package init(id: Int64?, command: String, status: String, message: String?, bottle: String? = nil,
                goalML: Int? = nil, recordID: Int? = nil, on: Bool? = nil) {
        self.bottle = bottle
        self.id = id
        self.command = command
        self.status = status
        self.message = message
        self.goalML = goalML
        self.recordID = recordID
        self.on = on
    }
}
