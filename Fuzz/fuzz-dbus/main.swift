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
// hands over to libFuzzer's driver, and also exports LLVMFuzzerTestOneInput (SWIFT-LINUX.md P9).
import DBus

#if canImport(Glibc)
import Glibc
#endif

/// One input: must never trap; a decodable message must survive the round trip.
func fuzzOneInput(_ bytes: [UInt8]) {
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
    return try bodies.map { ($0.0, try DBusWire.encodeSignal(arguments: $0.1)) }
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
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

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
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
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
