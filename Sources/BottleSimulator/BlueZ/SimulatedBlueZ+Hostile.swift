// A hostile bottle (`--fault hostile=SEED`): a buggy firmware or a device that spoofs
// the bottle's address. Each Drink Data chunk it notifies may be bent, seeded: a total of chunks
// far beyond the START's count, an index that jumps, a record of ±32767 ml or a level of 32000 ml,
// a timestamp in 1970 or 2106, a record count that does not fit the payload, or random bytes; and
// after each chunk it floods Current State with a low-battery flag that flickers.
import AquavateProtocol
import DBus

extension SimulatedBlueZ {
    /// The chunk as the hostile bottle sends it (unchanged when no hostile fault is set).
    func hostile(_ value: [UInt8], _ state: inout SimulatorState) -> [UInt8] {
        guard var random = state.hostile, value.count >= 6 else { return value }
        defer { state.hostile = random }
        var bytes = value
        let recordCount = Int(bytes[4])
        func field(_ record: Int, _ offset: Int) -> Int { 6 + 14 * record + offset }
        let choice = Int.random(in: 0..<9, using: &random)
        switch choice {
        case 0: bytes[2] = 0xFF; bytes[3] = 0x00                                       // 255 chunks
        case 1: bytes[0] = bytes[0] &+ 5                                              // index jumps ahead
        case 2 where recordCount > 0:                                                 // ±32767 ml
            let amount: Int16 = Bool.random(using: &random) ? .max : -.max
            let at = field(Int.random(in: 0..<recordCount, using: &random), 8)
            bytes[at] = UInt8(truncatingIfNeeded: amount); bytes[at + 1] = UInt8(truncatingIfNeeded: amount >> 8)
        case 3 where recordCount > 0:                                                 // level 32000 ml
            let at = field(Int.random(in: 0..<recordCount, using: &random), 10)
            bytes[at] = 0x00; bytes[at + 1] = 0x7D
        case 4 where recordCount > 0:                                                 // 1970 or 2106
            let at = field(Int.random(in: 0..<recordCount, using: &random), 4)
            let stamp: UInt32 = Bool.random(using: &random) ? 1000 : .max
            for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: stamp >> (8 * i)) }
        case 5: bytes[4] = 0xFF                                                       // count past the payload
        case 6: bytes = random.bytes(Int.random(in: 0...40, using: &random))          // noise
        default: break                                                                // an honest chunk
        }
        if bytes != value { log("fault: hostile: chunk bent (\(choice))") }
        return bytes
    }

    /// The chunk with a total of 255 chunks, far beyond any START's count, when `bad-total` is
    /// set: a structural fault a bridge must refuse unacknowledged at every connection, so the
    /// bottle ends up stuck (docs/design.md 3.4).
    func badTotal(_ value: [UInt8], _ state: SimulatorState) -> [UInt8] {
        guard state.faults.badTotal, value.count >= 6, value != DrinkDataChunk.placeholder.encoded() else { return value }
        var bytes = value
        bytes[2] = 0xFF
        bytes[3] = 0x00
        log("fault: bad-total: chunk \(Int(value[0]) | Int(value[1]) << 8) announces 255 chunks")
        return bytes
    }

    /// After a chunk: a burst of Current State notifications whose low-battery flag flickers.
    func hostileFlood(_ state: inout SimulatorState) {
        guard state.hostile != nil, let honest = try? CurrentState(decoding: state.model.value(of: .currentState)) else { return }
        for i in 0..<20 {
            var flickering = honest
            if i % 2 == 0 { flickering.flags.insert(.lowBattery) } else { flickering.flags.remove(.lowBattery) }
            deliver(.notification(.currentState, flickering.encoded()), &state)
        }
    }
}
