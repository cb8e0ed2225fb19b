// Every fixed-size structure refuses one byte too few and one too many, with a one-line error.

import AquavateProtocol
import Testing

struct ExactLengthCase: Sendable, CustomTestStringConvertible {
    let name: String
    let length: Int
    let decode: @Sendable ([UInt8]) throws -> Void

    var testDescription: String { "\(name) (\(length) bytes)" }

    static func of<Value: WireValue>(_ type: Value.Type, length: Int) -> ExactLengthCase {
        ExactLengthCase(name: Value.structureName, length: length) { _ = try Value(decoding: $0) }
    }

    static let all: [ExactLengthCase] = [
        .of(CurrentState.self, length: 14),
        .of(DrinkRecord.self, length: 14),
        .of(BottleConfig.self, length: 12),
        .of(SyncControl.self, length: 8),
        .of(DeviceSettings.self, length: 4),
        .of(ActivitySummary.self, length: 12),
        .of(CalibrationState.self, length: 12),
    ]
}

@Suite("Wrong lengths")
struct WrongLengthTests {
    @Test("One byte short, one byte long and empty are rejected; the exact length decodes",
          arguments: ExactLengthCase.all)
    func exactLength(testCase: ExactLengthCase) throws {
        for length in [0, testCase.length - 1, testCase.length + 1] {
            let error = #expect(throws: ProtocolError.self) {
                try testCase.decode(Array(repeating: 0x5A, count: length))
            }
            #expect(error == .wrongLength(structure: testCase.name, expected: "exactly \(testCase.length)", actual: length))
            #expect(error?.description == "\(testCase.name) must be exactly \(testCase.length) bytes, got \(length)")
        }
        #expect(throws: Never.self) { try testCase.decode(Array(repeating: 0x5A, count: testCase.length)) }
    }

    @Test("Drink Data chunk: every length below the header is rejected", arguments: 0..<6)
    func chunkHeader(length: Int) {
        #expect(throws: ProtocolError.wrongLength(structure: "Drink Data chunk", expected: "at least 6", actual: length)) {
            try DrinkDataChunk(decoding: Array(repeating: 0, count: length))
        }
    }

    @Test("Activity chunks: every length below the header is rejected", arguments: 0..<4)
    func activityHeader(length: Int) {
        let bytes = Array(repeating: UInt8(0), count: length)
        #expect(throws: ProtocolError.wrongLength(structure: "Motion-event chunk", expected: "at least 4", actual: length)) {
            try MotionEventChunk(decoding: bytes)
        }
        #expect(throws: ProtocolError.wrongLength(structure: "Backpack-session chunk", expected: "at least 4", actual: length)) {
            try BackpackSessionChunk(decoding: bytes)
        }
    }
}

@Suite("Error descriptions")
struct ProtocolErrorDescriptionTests {
    static let errors: [ProtocolError] = [
        .wrongLength(structure: "Current State", expected: "exactly 14", actual: 13),
        .truncatedChunk(declaredRecords: 20, neededBytes: 286, actualBytes: 244),
        .entryCountMismatch(structure: "Motion-event chunk", declaredEntries: 1, expectedBytes: 12, actualBytes: 13),
        .tooManyEntries(structure: "Backpack-session chunk", declared: 6, maximum: 5),
        .ignoredCommand(bytes: [0x10, 0xB0]),
    ]

    @Test("Every description is one line that names the numbers", arguments: errors)
    func oneLine(error: ProtocolError) {
        #expect(!error.description.contains("\n"))
        #expect(!error.description.isEmpty)
    }

    @Test("The truncated-chunk description says what to do")
    func truncated() {
        #expect(ProtocolError.truncatedChunk(declaredRecords: 20, neededBytes: 286, actualBytes: 244).description
            == "Drink Data chunk declares 20 records needing 286 bytes but has 244 (truncated notification): "
            + "do not ACK; read the characteristic or request a smaller chunk_size")
    }

    @Test("Hex helper round trip")
    func hexRoundTrip() {
        #expect(Hex.format([0x00, 0xAB, 0x10]) == "00 AB 10")
        #expect(Hex.parse("00 ab 10") == [0x00, 0xAB, 0x10])
        #expect(Hex.parse("00AB10") == [0x00, 0xAB, 0x10])
        #expect(Hex.parse("0") == nil)
        #expect(Hex.parse("0G") == nil)
        #expect(Hex.parse("") == [])
    }
}
