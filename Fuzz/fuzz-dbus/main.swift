// libFuzzer target for the DBus module's marshalling: bytes → dbus_message_demarshal (libdbus's
// validator) → our decoder → our encoder → libdbus again → our decoder, and the two decodings
// must agree. A body libdbus accepted must always re-encode (our validation may not be stricter
// than libdbus's, nor looser, or we would send bodies the bus drops us for), and nothing may trap.
//
//   swift build --scratch-path .build-fuzz --product fuzz-dbus \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
//   .build-fuzz/debug/fuzz-dbus --write-seeds Fuzz/corpus-fuzz-dbus
//   SWIFT_BACKTRACE=enable=no .build-fuzz/debug/fuzz-dbus -max_total_time=600 Fuzz/corpus-fuzz-dbus
//
// SwiftPM links executables with `--defsym main=<module>_main`, so the target has an @main that
// hands over to libFuzzer's driver, and also exports LLVMFuzzerTestOneInput (docs/swift-linux.md P9).
import DBus
#if FUZZING
import FuzzDriver
#endif

#if canImport(Glibc)
import Glibc
#endif

/// One input. A message starts with its byte-order mark ('l' or 'B'); anything else drives the
/// value generator instead.
func fuzzOneInput(_ bytes: [UInt8]) {
    if let first = bytes.first, first == UInt8(ascii: "l") || first == UInt8(ascii: "B") {
        checkMessage(bytes)
    } else {
        checkGeneratedValues(bytes)
    }
}

/// A message libdbus accepts must decode, re-encode, and decode to the same body; nothing traps.
func checkMessage(_ bytes: [UInt8]) {
    guard let (signature, body) = try? DBusWire.decodeMessage(bytes) else { return }
    guard body.signature == signature else {
        fatalError("decoded body has signature \(body.signature), the header says \(signature)")
    }
    exerciseAccessors(body)
    let encoded: [UInt8]
    do {
        encoded = try DBusWire.encodeSignal(arguments: body)
    } catch {
        fatalError("a body libdbus accepted (\(signature)) does not re-encode: \(error)")
    }
    let again: (signature: DBusSignature, body: [DBusValue])
    do {
        again = try DBusWire.decodeMessage(encoded)
    } catch {
        fatalError("our encoding of \(signature) is refused by libdbus: \(error)")
    }
    guard again.signature == signature, identical(again.body, body) else {
        fatalError("round trip changed the body of \(signature)")
    }
    guard let encodedAgain = try? DBusWire.encodeSignal(arguments: again.body), encodedAgain == encoded else {
        fatalError("encoding is not deterministic for \(signature)")
    }
}

/// Values built from the input bytes: our encoder either refuses them or produces a body that
/// libdbus's validator accepts and that decodes back to the same wire bytes. This is where our
/// checks (nesting depth, element types, names) are held to libdbus's exactly.
func checkGeneratedValues(_ bytes: [UInt8]) {
    var reader = ByteReader(bytes: bytes.dropFirst())
    var values: [DBusValue] = []
    while values.count < 8, let value = reader.value(depth: 0) { values.append(value) }
    // Arrays of copies of arrays of copies grow exponentially; keep each input cheap.
    var budget = 2_000
    guard values.allSatisfy({ fits($0, &budget) }) else { return }
    guard let encoded = try? DBusWire.encodeSignal(arguments: values) else { return }
    let decoded: (signature: DBusSignature, body: [DBusValue])
    do {
        decoded = try DBusWire.decodeMessage(encoded)
    } catch {
        fatalError("we encoded \(values.signature) but libdbus refuses it: \(error)")
    }
    guard decoded.signature == values.signature,
        let again = try? DBusWire.encodeSignal(arguments: decoded.body), again == encoded
    else {
        fatalError("generated values of type \(values.signature) do not survive the round trip")
    }
}

/// Counts the value's nodes against `budget`; false once it runs out (stops walking then).
func fits(_ value: DBusValue, _ budget: inout Int) -> Bool {
    budget -= 1
    if budget < 0 { return false }
    switch value {
    case .bytes(let bytes):
        budget -= bytes.count
        return budget >= 0
    case .array(_, let items), .structure(let items):
        return items.allSatisfy { fits($0, &budget) }
    case .dict(_, _, let entries):
        return entries.allSatisfy { fits($0.key, &budget) && fits($0.value, &budget) }
    case .variant(let inner):
        return fits(inner, &budget)
    default:
        return true
    }
}

/// Turns fuzz bytes into DBusValues, valid or not (arrays repeat one element so that deep
/// nesting stays mostly well-typed).
struct ByteReader {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8? { bytes.popFirst() }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T {
        var value: T = 0
        for _ in 0..<MemoryLayout<T>.size { value = value << 8 | T(truncatingIfNeeded: byte() ?? 0) }
        return value
    }

    mutating func text() -> String {
        let length = Int(byte() ?? 0) % 12
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let b = byte() ?? 0
            scalars.append(Unicode.Scalar(b < 0x80 ? b : 0xE9))
        }
        return String(scalars)
    }

    static let paths = ["/", "/org/bluez", "/org/bluez/hci0/dev_C0_FF_EE_A3_F2_01", "//", "/a/", "x", "/a-b", ""]
    static let signatures = ["", "s", "a{sv}", "(ii)", "a", "{sv}", "aa{oa{sa{sv}}}", "v", "(", "a{vs}", "h"]
    static let elementTypes = ["y", "s", "v", "ay", "a{sv}", "(is)", "b", "q", "o", "{sv}", "ss", "", "x"]

    mutating func value(depth: Int) -> DBusValue? {
        guard let kind = byte() else { return nil }
        switch kind % 20 {
        case 0: return .byte(byte() ?? 0)
        case 1: return .bool((byte() ?? 0) & 1 == 1)
        case 2: return .int16(integer(Int16.self))
        case 3: return .uint16(integer(UInt16.self))
        case 4: return .int32(integer(Int32.self))
        case 5: return .uint32(integer(UInt32.self))
        case 6: return .int64(integer(Int64.self))
        case 7: return .uint64(integer(UInt64.self))
        case 8: return .double(Double(bitPattern: integer(UInt64.self)))
        case 9: return .string(text())
        case 10: return .objectPath(DBusObjectPath(Self.paths[Int(byte() ?? 0) % Self.paths.count]))
        case 11: return .signature(DBusSignature(Self.signatures[Int(byte() ?? 0) % Self.signatures.count]))
        case 12:
            let count = Int(byte() ?? 0) % 9
            return .bytes((0..<count).map { _ in byte() ?? 0 })
        case 13, 14:  // an array of copies of one element, its type declared from the element or picked
            let count = Int(byte() ?? 0) % 4
            let declared = byte() ?? 0
            guard let element = value(depth: depth + 1) else { return .array(element: "s", []) }
            let type = declared < 200 ? element.signature
                : DBusSignature(Self.elementTypes[Int(declared) % Self.elementTypes.count])
            return .array(element: type, Array(repeating: element, count: count))
        case 15:
            let count = Int(byte() ?? 0) % 3
            guard let key = value(depth: depth + 1), let item = value(depth: depth + 1) else {
                return .dict(key: "s", value: "v", [])
            }
            return .dict(key: key.signature, value: item.signature,
                         Array(repeating: DBusDictEntry(key: key, value: item), count: count))
        case 16, 17:
            let count = Int(byte() ?? 0) % 4
            var fields: [DBusValue] = []
            for _ in 0..<count { if let field = value(depth: depth + 1) { fields.append(field) } }
            return .structure(fields)
        case 18:
            // Long chains of variants reach the 64-level limit cheaply.
            let chain = Int(byte() ?? 0) % 70
            guard let inner = value(depth: depth + chain + 1) else { return .variant(.byte(0)) }
            return (0...chain).reduce(inner) { value, _ in .variant(value) }
        default:
            guard depth < 200, let inner = value(depth: depth + 1) else { return .variant(.string("")) }
            return .variant(inner)
        }
    }
}

/// The reading helpers must return nil or throw on any shape, never trap.
func exerciseAccessors(_ body: [DBusValue]) {
    for value in body {
        _ = value.stringDictionary?.count
        _ = value.objectPathDictionary?.count
        _ = value.strings?.count
        _ = value.bytes?.count
        _ = value.objectPaths?.count
        _ = try? value.decode([DBusObjectPath: [String: [String: DBusValue]]].self)
        _ = try? value.decode([String: DBusValue].self)
        _ = try? value.decode([UInt8].self)
        _ = try? value.decode([[String]].self)
    }
    _ = try? body.decode(0, as: String.self)
    _ = try? body.decode(1, as: [String: DBusValue].self)
}

/// Value equality that compares doubles bit for bit (NaN == NaN here).
func identical(_ a: [DBusValue], _ b: [DBusValue]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy(identical)
}

func identical(_ a: DBusValue, _ b: DBusValue) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
    case (.array(let e1, let i1), .array(let e2, let i2)): return e1 == e2 && identical(i1, i2)
    case (.dict(let k1, let v1, let x), .dict(let k2, let v2, let y)):
        return k1 == k2 && v1 == v2 && x.count == y.count
            && zip(x, y).allSatisfy { identical($0.key, $1.key) && identical($0.value, $1.value) }
    case (.structure(let x), .structure(let y)): return identical(x, y)
    case (.variant(let x), .variant(let y)): return identical(x, y)
    default: return a == b
    }
}

/// Seed messages: the shapes BlueZ sends, plus every basic type and the nesting edges.
func seeds() throws -> [(name: String, bytes: [UInt8])] {
    let device: DBusObjectPath = "/org/bluez/hci0/dev_C0_FF_EE_A3_F2_01"
    let tree: DBusValue = .dict(key: "o", value: "a{sa{sv}}", [
        DBusDictEntry(key: .objectPath(device), value: .dict(key: "s", value: "a{sv}", [
            DBusDictEntry(key: .string("org.bluez.Device1"), value: .variantDictionary([
                "Name": .string("Aquavate-A3F2"), "RSSI": .int16(-60), "Connected": .bool(true),
                "UUIDs": .strings(["6e400001-b5a3-f393-e0a9-e50e24dcca9e"]), "Appearance": .uint16(0),
                "ManufacturerData": .dict(key: "q", value: "v", [DBusDictEntry(key: .uint16(0x0FFF), value: .variant(.bytes([1, 2])))]),
            ])),
        ])),
    ])
    var deep = DBusValue.int32(1)
    for _ in 0..<64 { deep = .variant(deep) }
    let bodies: [(String, [DBusValue])] = [
        ("managed-objects", [tree]),
        ("properties-changed", [.string("org.bluez.GattCharacteristic1"),
                                .variantDictionary(["Value": .bytes([0x01, 0xDB])]), .strings(["MTU"])]),
        ("interfaces-removed", [.objectPath(device), .strings(["org.bluez.Device1"])]),
        ("write-value", [.bytes([0, 0, 3, 0, 1, 0, 0x11, 0]), .variantDictionary(["type": .string("request")])]),
        ("basics", [.byte(1), .bool(true), .int16(-1), .uint16(2), .int32(-3), .uint32(4), .int64(-5),
                    .uint64(6), .double(7.5), .string("s"), .objectPath("/o"), .signature("a{sv}")]),
        ("struct-array", [.array(element: "(yqa{sv})", [.structure([.byte(1), .uint16(2), .variantDictionary([:])])])]),
        ("deep-variants", [deep]),
        ("error", [.string("le-connection-abort-by-local")]),
    ]
    let generated: [(String, [UInt8])] = [
        ("gen-variant-chain", [0, 18, 64, 12, 2, 1, 2]),
        ("gen-array-of-structs", [0, 13, 3, 0, 16, 2, 9, 3, 0x61, 0x62, 0x63, 3, 0, 0, 0, 7]),
        ("gen-dict", [0, 15, 2, 9, 1, 0x6B, 19, 12, 3, 1, 2, 3]),
    ]
    return try bodies.map { ($0.0, try DBusWire.encodeSignal(arguments: $0.1)) } + generated
}

/// `--write-seeds DIR`: writes the seed corpus and returns true.
func writeSeedsIfAsked() -> Bool {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--write-seeds"), index + 1 < arguments.count else { return false }
    let directory = arguments[index + 1]
    mkdir(directory, 0o755)
    do {
        for seed in try seeds() {
            guard let file = fopen("\(directory)/seed-\(seed.name)", "wb") else {
                fatalError("cannot write \(directory)/seed-\(seed.name)")
            }
            _ = seed.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
    } catch {
        fatalError("cannot build seeds: \(error)")
    }
    print("wrote \(try! seeds().count) seeds to \(directory)")
    return true
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    fuzzOneInput(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@main
struct FuzzDBus {
    static func main() {
        if writeSeedsIfAsked() { return }
        runLibFuzzer { data, size in fuzzTestOneInput(data, size) }
    }
}
#else
@main
struct FuzzDBus {
    static func main() {
        if writeSeedsIfAsked() { return }
        // Without libFuzzer: run the seeds through the check once, so a plain build stays useful.
        do {
            for seed in try seeds() { fuzzOneInput(seed.bytes) }
            print("fuzz-dbus: seeds pass; build with -sanitize=fuzzer,address -DFUZZING to fuzz (see Fuzz/run.sh)")
        } catch {
            print("fuzz-dbus: cannot build seeds: \(error)")
            exit(1)
        }
    }
}
#endif
