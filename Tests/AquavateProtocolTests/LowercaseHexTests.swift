// The one writer of lower-case hex: every byte as two digits, nothing between, as the history's
// raw records, the household's digests and marks and the JSON events have always written it.

import AquavateProtocol
import Foundation
import Testing

@Suite("Lower-case hex")
struct LowercaseHexTests {
    @Test("Each of the 256 bytes is written as printf's %02x writes it")
    func everyByte() {
        for byte in UInt8.min...UInt8.max {
            #expect([byte].lowercaseHex == String(format: "%02x", byte))
        }
    }

    @Test("Bytes follow each other with nothing between; no bytes is empty text")
    func sequences() {
        #expect([0x10, 0xB0, 0xE8, 0x90, 0x00, 0x0F].lowercaseHex == "10b0e890000f")
        #expect([UInt8]().lowercaseHex == "")
        // Any sequence of bytes: a slice, a prefix, a lazy map.
        let bytes: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0x01]
        #expect(bytes.prefix(2).lowercaseHex == "dead")
        #expect(bytes.lazy.map { $0 ^ 0xFF }.lowercaseHex == "21524110fe")
    }
}
