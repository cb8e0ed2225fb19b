// What must hold for ANY input bytes, checked on every fuzz input.
//
// Each decoder sees the same bytes; each checks its own length rule. A decode either fails with the
// error its rule predicts or succeeds and re-encodes to exactly the bytes it consumed. A broken
// invariant calls fatalError, which libFuzzer records as a crash.

#if FUZZING
import AquavateProtocol

enum ProtocolInvariants {
    static func check(_ bytes: [UInt8]) {
        checkDrinkDataChunk(bytes)
        checkExactLength(CurrentState.self, bytes, length: 14)
        checkExactLength(SyncControl.self, bytes, length: 8)
        checkExactLength(BottleConfig.self, bytes, length: 12)
        checkExactLength(DrinkRecord.self, bytes, length: 14)
        checkExactLength(DeviceSettings.self, bytes, length: 4)
        checkExactLength(ActivitySummary.self, bytes, length: 12)
        checkExactLength(CalibrationState.self, bytes, length: 12)
        checkActivityChunk(MotionEventChunk.self, bytes, entrySize: 8, maxEntries: 10)
        checkActivityChunk(BackpackSessionChunk.self, bytes, entrySize: 12, maxEntries: 5)
        checkCommand(bytes)
        checkCurrentStateOverlay(bytes)
        checkChunkArithmetic(bytes)
        _ = DeviceInformation.cleanString(bytes)
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("invariant broken: \(message())") }
    }

    static func checkDrinkDataChunk(_ bytes: [UInt8]) {
        let declared = bytes.count > 4 ? Int(bytes[4]) : 0
        let needed = 6 + 14 * declared
        do {
            let chunk = try DrinkDataChunk(decoding: bytes)
            require(bytes.count >= needed, "accepted a chunk of \(bytes.count) bytes that needs \(needed)")
            require(chunk.records.count == declared, "record count \(chunk.records.count) != header \(declared)")
            let encoded = chunk.encoded()
            require(encoded == Array(bytes.prefix(needed)), "chunk does not re-encode to its prefix")
            require(chunk.trailingByteCount == bytes.count - needed, "wrong trailing byte count")
            require(chunk.isLast == (Int(chunk.chunkIndex) + 1 >= Int(chunk.totalChunks)), "isLast")
            // Differential: the slow per-record decoder and the append fast path agree.
            for (index, record) in chunk.records.enumerated() {
                let start = 6 + 14 * index
                require((try? DrinkRecord(decoding: Array(bytes[start..<start + 14]))) == record,
                        "record \(index) differs from the per-record decoder")
            }
            var appended: [DrinkRecord] = [DrinkRecord(recordID: 1, timestamp: 2, amountML: 3, bottleLevelML: 4,
                                                       typeRaw: 5, flagsRaw: 6)]
            let header = try DrinkDataChunk.decodeRecords(bytes, into: &appended)
            require(Array(appended.dropFirst()) == chunk.records && header.recordCount == declared,
                    "decodeRecords disagrees with init(decoding:)")
        } catch {
            if bytes.count < 6 {
                require(error == .wrongLength(structure: "Drink Data chunk", expected: "at least 6",
                                              actual: bytes.count), "wrong error for a short header: \(error)")
            } else {
                require(bytes.count < needed, "rejected a complete chunk: \(error)")
                require(error == .truncatedChunk(declaredRecords: declared, neededBytes: needed,
                                                 actualBytes: bytes.count), "wrong error: \(error)")
            }
            var untouched: [DrinkRecord] = []
            require((try? DrinkDataChunk.decodeRecords(bytes, into: &untouched)) == nil && untouched.isEmpty,
                    "decodeRecords appended from a rejected chunk")
        }
    }

    static func checkExactLength<Value: WireValue>(_ type: Value.Type, _ bytes: [UInt8], length: Int) {
        do {
            let value = try Value(decoding: bytes)
            require(bytes.count == length, "\(Value.structureName) accepted \(bytes.count) bytes")
            require(value.encoded() == bytes, "\(Value.structureName) does not re-encode to its input")
        } catch {
            require(bytes.count != length, "\(Value.structureName) rejected \(length) bytes: \(error)")
            require(error == .wrongLength(structure: Value.structureName, expected: "exactly \(length)",
                                          actual: bytes.count), "wrong error: \(error)")
        }
    }

    static func checkActivityChunk<Value: WireValue>(_ type: Value.Type, _ bytes: [UInt8], entrySize: Int,
                                                     maxEntries: Int) {
        let declared = bytes.count > 2 ? Int(bytes[2]) : 0
        let valid = bytes.count >= 4 && declared <= maxEntries && bytes.count == 4 + entrySize * declared
        do {
            let value = try Value(decoding: bytes)
            require(valid, "\(Value.structureName) accepted \(bytes.count) bytes declaring \(declared)")
            require(value.encoded() == bytes, "\(Value.structureName) does not re-encode to its input")
        } catch {
            require(!valid, "\(Value.structureName) rejected a valid chunk: \(error)")
        }
    }

    static let dispatchable: Set<[Int]> = [[5, 0x10], [5, 0x12], [3, 0x11], [13, 0x04]]
    static let fourByteCodes: Set<UInt8> = [0x01, 0x02, 0x03, 0x05, 0x06, 0x20, 0x21, 0x30, 0x31, 0x32]
    static let codesWithParam1: Set<UInt8> = [0x03, 0x31, 0x32]

    static func checkCommand(_ bytes: [UInt8]) {
        let command = Command.parse(bytes)
        guard let code = bytes.first else {
            require(command == nil, "parsed an empty write")
            return
        }
        let expected = bytes.count == 4 ? fourByteCodes.contains(code) : dispatchable.contains([bytes.count, Int(code)])
        require((command != nil) == expected, "dispatch of \(bytes.count) bytes code \(code) is wrong")
        require(Command.countsAsActivity(bytes) == !(bytes.count == 5 && code == 0x10), "activity rule")
        guard let command else { return }
        let encoded = command.encoded()
        require(Command.parse(encoded).map { $0.encoded() } == encoded, "parse(encoded()) is not stable")
        if bytes.count == 4 {
            let significant = codesWithParam1.contains(code) ? 2 : 1
            require(encoded.count == 4 && encoded.prefix(significant) == bytes.prefix(significant),
                    "4-byte command re-encodes differently")
        } else {
            require(encoded == bytes, "command does not re-encode to its input")
        }
    }

    static func checkCurrentStateOverlay(_ bytes: [UInt8]) {
        guard let state = try? CurrentState(decoding: bytes) else { return }
        let overlay = Int32(bitPattern: UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16
            | UInt32(bytes[7]) << 24)
        require(state.calibrationADC == (bytes[11] & 0x10 != 0 ? overlay : nil), "calibration overlay")
        require(state.withCalibrationADC(overlay).encoded() == bytes.enumerated().map { $0 == 11 ? $1 | 0x10 : $1 },
                "withCalibrationADC does not rebuild the overlay")
    }

    static func checkChunkArithmetic(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return }
        let mtu = Int(bytes[0]) | Int(bytes[1]) << 8
        let perChunk = ChunkSizing.recordsPerChunk(mtu: mtu)
        require((1...17).contains(perChunk), "recordsPerChunk out of range")
        if mtu >= 23 + 14 {
            require(ChunkSizing.chunkByteCount(records: perChunk) <= ChunkSizing.maxNotificationPayload(mtu: mtu),
                    "chunk of \(perChunk) records does not fit MTU \(mtu)")
        }
        let records = Int(bytes[2]) | Int(bytes[3]) << 8
        let size = ChunkSizing.effectiveChunkSize(requested: UInt16(bytes[0]))
        let total = ChunkSizing.totalChunks(records: records, chunkSize: size)
        var sum = 0
        for index in 0..<total { sum += ChunkSizing.recordsInChunk(index: index, records: records, chunkSize: size) }
        require(sum == records, "chunks of \(records) records by \(size) do not add up")
        require(ChunkSizing.recordsInChunk(index: total, records: records, chunkSize: size) == 0, "past the end")
    }
}
#endif
