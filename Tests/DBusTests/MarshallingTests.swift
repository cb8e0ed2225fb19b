// DBusValue encoding and decoding without a bus: through whole marshalled messages, so libdbus's
// own validator (dbus_message_demarshal) checks every body we produce.
import BusTestSupport
import DBus
import Testing

/// One sample of every type, including the shapes BlueZ uses.
let everyTypeSamples: [DBusValue] = [
    .byte(0xFF), .bool(true), .bool(false), .int16(-2), .uint16(.max), .int32(.min), .uint32(.max),
    .int64(.min), .uint64(.max), .double(-3.5), .string("héllo ✓"), .string(""),
    .objectPath("/org/bluez/hci0"), .objectPath("/"), .signature("a{sv}"), .signature(""),
    .bytes([0x01, 0xF4, 0x00]), .bytes([]),
    .strings(["read", "notify"]), .array(element: "s", []), .objectPaths(["/a", "/b/c"]),
    .array(element: "b", [.bool(true), .bool(false)]), .array(element: "q", [.uint16(517)]),
    .array(element: "(is)", [.structure([.int32(1), .string("one")])]),
    .array(element: "a{sv}", [.variantDictionary(["k": .string("v")])]),
    .dict(key: "y", value: "ay", [DBusDictEntry(key: .byte(1), value: .bytes([9]))]),
    .dict(key: "s", value: "v", []),
    .structure([.int32(1), .string("x"), .variant(.bool(true))]),
    .variant(.variant(.int32(7))),
    .variantDictionary([
        "Value": .bytes([0x01, 0xDB]), "RSSI": .int16(-79), "MTU": .uint16(247), "Connected": .bool(true),
        "Name": .string("Aquavate-A3F2"), "Device": .objectPath("/org/bluez/hci0/dev_C0_FF_EE_A3_F2_01"),
        "Flags": .strings(["read", "notify"]),
    ]),
    sampleManagedObjects,
]

/// An `a{oa{sa{sv}}}` shaped like BlueZ's GetManagedObjects reply.
let sampleManagedObjects: DBusValue = .dict(key: "o", value: "a{sa{sv}}", [
    DBusDictEntry(key: .objectPath("/org/bluez/hci0"), value: .dict(key: "s", value: "a{sv}", [
        DBusDictEntry(key: .string("org.bluez.Adapter1"), value: .variantDictionary([
            "Address": .string("00:AA:01:00:00:01"), "Powered": .bool(true), "Roles": .strings(["central"]),
        ])),
    ])),
    DBusDictEntry(key: .objectPath("/org/bluez/hci0/dev_C0_FF_EE_A3_F2_01"), value: .dict(key: "s", value: "a{sv}", [
        DBusDictEntry(key: .string("org.freedesktop.DBus.Properties"), value: .dict(key: "s", value: "v", [])),
        DBusDictEntry(key: .string("org.bluez.Device1"), value: .variantDictionary([
            "Name": .string("Aquavate-A3F2"), "RSSI": .int16(-60), "ServicesResolved": .bool(false),
            "ManufacturerData": .dict(key: "q", value: "v", [DBusDictEntry(key: .uint16(0x0FFF), value: .variant(.bytes([1, 2])))]),
        ])),
    ])),
])

/// `depth` nested variants around `inner`.
func nestedVariants(_ depth: Int, around inner: DBusValue) -> DBusValue {
    (0..<depth).reduce(inner) { value, _ in .variant(value) }
}

@Suite struct MarshallingTests {
    @Test func signaturesOfEveryType() {
        let expected: [DBusSignature] = [
            "y", "b", "b", "n", "q", "i", "u", "x", "t", "d", "s", "s", "o", "o", "g", "g", "ay", "ay",
            "as", "as", "ao", "ab", "aq", "a(is)", "aa{sv}", "a{yay}", "a{sv}", "(isv)", "v", "a{sv}",
            "a{oa{sa{sv}}}",
        ]
        #expect(everyTypeSamples.map(\.signature) == expected)
        #expect(everyTypeSamples.signature.rawValue == expected.map(\.rawValue).joined())
    }

    @Test(arguments: everyTypeSamples)
    func roundTripOneValue(_ value: DBusValue) throws {
        let bytes = try DBusWire.encodeSignal(arguments: [value])
        let decoded = try DBusWire.decodeMessage(bytes)
        #expect(decoded.signature == value.signature)
        #expect(decoded.body == [value])
    }

    @Test func roundTripAllValuesInOneBody() throws {
        let decoded = try DBusWire.decodeBody(ofMessage: DBusWire.encodeSignal(arguments: everyTypeSamples))
        #expect(decoded == everyTypeSamples)
    }

    @Test func byteArraysBuiltElementwiseDecodeAsBytes() throws {
        let decoded = try DBusWire.decodeBody(ofMessage: DBusWire.encodeSignal(
            arguments: [.array(element: "y", [.byte(1), .byte(2)])]))
        #expect(decoded == [.bytes([1, 2])])
    }

    @Test func managedObjectsDecodeTyped() throws {
        let tree: [DBusObjectPath: [String: [String: DBusValue]]] = try sampleManagedObjects.decode()
        #expect(tree.count == 2)
        let device = try #require(tree["/org/bluez/hci0/dev_C0_FF_EE_A3_F2_01"]?["org.bluez.Device1"])
        #expect(device["Name"]?.string == "Aquavate-A3F2")
        #expect(device["RSSI"]?.int16 == -60)
        #expect(device["ServicesResolved"]?.bool == false)
        #expect(device["ManufacturerData"]?.dictEntries?.first?.value.bytes == [1, 2])
        #expect(tree["/org/bluez/hci0"]?["org.bluez.Adapter1"]?["Roles"]?.strings == ["central"])
    }

    @Test func accessorsSeeThroughVariants() {
        #expect(DBusValue.variant(.bytes([1])).bytes == [1])
        #expect(DBusValue.variant(.variant(.string("s"))).string == "s")
        #expect(DBusValue.variant(.objectPaths(["/x"])).objectPaths == ["/x"])
        #expect(DBusValue.variantDictionary(["a": .uint16(5)]).stringDictionary?["a"]?.uint16 == 5)
        #expect(DBusValue.int32(1).string == nil)
        #expect(DBusValue.strings(["a"]).bytes == nil)
    }

    @Test func typedDecodingRejectsOtherShapes() throws {
        #expect(throws: DBusTypeMismatch.self) { try DBusValue.int32(1).decode(String.self) }
        #expect(throws: DBusTypeMismatch.self) { try DBusValue.strings(["a"]).decode([UInt8].self) }
        #expect(throws: DBusTypeMismatch.self) { try DBusValue.strings(["a"]).decode([String: DBusValue].self) }
        #expect(throws: DBusTypeMismatch.self) { try [DBusValue.string("x")].decode(1, as: String.self) }
        #expect(try DBusValue.bytes([1, 2]).decode([UInt8].self) == [1, 2])
        #expect(try [DBusValue.uint32(3)].decode(0, as: UInt32.self) == 3)
    }

    @Test func invalidValuesThrowInsteadOfReachingLibdbus() {
        let invalid: [DBusValue] = [
            .string("nul\u{0}inside"),
            .objectPath("not/a/path"), .objectPath("/trailing/"), .objectPath("/with-dash"),
            .signature("a{"), .signature("(i"),
            .array(element: "s", [.int32(1)]),
            .array(element: "{sv}", []),
            .array(element: "si", []),
            .dict(key: "v", value: "s", []),
            .dict(key: "ay", value: "s", []),
            .dict(key: "s", value: "v", [DBusDictEntry(key: .string("k"), value: .string("not a variant"))]),
            .structure([]),
            .unixFD(-1),
            .variant(.structure([])),
        ]
        for value in invalid {
            #expect(throws: DBusInvalidValue.self, "\(value)") { try DBusWire.encodeSignal(arguments: [value]) }
        }
        #expect(throws: DBusInvalidName.self) { try DBusWire.encodeSignal(interface: "no-dots", arguments: []) }
        #expect(throws: DBusInvalidName.self) { try DBusWire.encodeSignal(member: "bad.member", arguments: []) }
        #expect(throws: DBusInvalidName.self) { try DBusWire.encodeSignal(path: "//", arguments: []) }
    }

    /// The nesting limit is libdbus's exactly: 64 levels pass its validator, 65 are refused
    /// here; arrays of fixed types are not walked, so their elements may sit one level deeper.
    @Test func nestingLimitMatchesLibdbus() throws {
        for deepest in [nestedVariants(64, around: .int32(1)), nestedVariants(64, around: .bytes([1, 2])),
                        nestedVariants(64, around: .strings([]))]
        {
            let decoded = try DBusWire.decodeBody(ofMessage: DBusWire.encodeSignal(arguments: [deepest]))
            #expect(decoded == [deepest])
        }
        for tooDeep in [nestedVariants(65, around: .int32(1)), nestedVariants(64, around: .strings(["a"])),
                        nestedVariants(63, around: .structure([.variant(.int32(1))]))]
        {
            #expect(throws: DBusInvalidValue.self) { try DBusWire.encodeSignal(arguments: [tooDeep]) }
        }
        // 33 nested arrays break the signature rules (at most 32).
        let arrays = (0..<33).reduce(DBusValue.array(element: "i", [])) { inner, _ in
            .array(element: inner.signature, [])
        }
        #expect(throws: DBusInvalidValue.self) { try DBusWire.encodeSignal(arguments: [arrays]) }
    }

    @Test func malformedBytesThrow() throws {
        #expect(throws: DBusMalformedMessage.self) { try DBusWire.decodeBody(ofMessage: []) }
        #expect(throws: DBusMalformedMessage.self) { try DBusWire.decodeBody(ofMessage: [0x6C, 1, 2, 3]) }
        let valid = try DBusWire.encodeSignal(arguments: [sampleManagedObjects])
        #expect(throws: DBusMalformedMessage.self) { try DBusWire.decodeBody(ofMessage: Array(valid.dropLast(3))) }
    }

    /// Every single-byte corruption of a BlueZ-shaped message either is refused with an error or
    /// decodes to something that encodes again; nothing traps.
    @Test func corruptedMessagesNeverTrap() throws {
        let valid = try DBusWire.encodeSignal(arguments: [sampleManagedObjects, .variant(.bytes([1, 2, 3]))])
        var decodedCount = 0
        for index in valid.indices {
            for replacement: UInt8 in [0x00, 0xFF, 0x7B, 0x61, 0x76] where valid[index] != replacement {
                var bytes = valid
                bytes[index] = replacement
                guard let body = try? DBusWire.decodeBody(ofMessage: bytes) else { continue }
                decodedCount += 1
                let again = try DBusWire.decodeBody(ofMessage: DBusWire.encodeSignal(arguments: body))
                #expect(again == body)
            }
        }
        #expect(decodedCount > 0)
    }
}
