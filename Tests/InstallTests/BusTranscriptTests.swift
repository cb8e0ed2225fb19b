// How the comparison of the bridge's D-Bus traffic with bluetoothd and with aquavate-sim reads
// dbus-monitor's output (BusTranscript) and tells the differences (SimulatorAgreement), on a
// recording written here: GATT objects named by UUID whatever their handles, values by their size,
// what bluetoothd sends after the client left not heard, a moved line told from a missing one.
import Testing

@Suite("Comparing the bridge's D-Bus traffic with bluetoothd and with the simulator")
struct BusTranscriptTests {
    /// A recording as dbus-monitor prints it: the client :1.7 connects, reads, hears a value.
    static func recording(handle: String, connectReplyFirst: Bool) -> String {
        let device = "/org/bluez/hci0/dev_F4_12_FA_00_0A_F6"
        let characteristic = "\(device)/service\(handle)/char\(handle)1"
        let connected = """
            signal time=1.2 sender=:1.0 -> destination=(null destination) serial=20 path=\(device); interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
               string "org.bluez.Device1"
               array [
                  dict entry(
                     string "Connected"
                     variant             boolean true
                  )
                  dict entry(
                     string "RSSI"
                     variant             int16 -61
                  )
               ]
               array [
               ]
            """
        let reply = "method return time=1.3 sender=:1.0 -> destination=:1.7 serial=21 reply_serial=5"
        return """
            method call time=1.1 sender=:1.7 -> destination=org.bluez serial=5 path=\(device); interface=org.bluez.Device1; member=Connect
            \(connectReplyFirst ? reply + "\n" + connected : connected + "\n" + reply)
            signal time=1.4 sender=:1.0 -> destination=(null destination) serial=22 path=/; interface=org.freedesktop.DBus.ObjectManager; member=InterfacesAdded
               object path "\(device)/service\(handle)"
               array [
                  dict entry(
                     string "org.bluez.GattService1"
                     array [
                        dict entry(
                           string "UUID"
                           variant                   string "6F75616B-7661-7465-2D00-000000000000"
                        )
                     ]
                  )
               ]
            signal time=1.4 sender=:1.0 -> destination=(null destination) serial=22 path=/; interface=org.freedesktop.DBus.ObjectManager; member=InterfacesAdded
               object path "\(characteristic)"
               array [
                  dict entry(
                     string "org.bluez.GattCharacteristic1"
                     array [
                        dict entry(
                           string "UUID"
                           variant                   string "6f75616b-7661-7465-2d00-000000000001"
                        )
                        dict entry(
                           string "Service"
                           variant                   object path "\(device)/service\(handle)"
                        )
                     ]
                  )
               ]
            method call time=1.5 sender=:1.7 -> destination=org.bluez serial=6 path=\(characteristic); interface=org.bluez.GattCharacteristic1; member=WriteValue
               array of bytes [
                  01 02 03 04
               ]
               array [
               ]
            signal time=1.6 sender=:1.0 -> destination=(null destination) serial=23 path=\(characteristic); interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
               string "org.bluez.GattCharacteristic1"
               array [
                  dict entry(
                     string "Value"
                     variant                   array of bytes [
                        00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d
                     ]
                  )
               ]
               array [
               ]
            error time=1.7 sender=:1.0 -> destination=:1.7 error_name=org.bluez.Error.Failed reply_serial=6
               string "Not connected"
            signal time=1.8 sender=org.freedesktop.DBus -> destination=(null destination) serial=9 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameOwnerChanged
               string ":1.7"
               string ":1.7"
               string ""
            signal time=1.9 sender=:1.0 -> destination=(null destination) serial=24 path=\(device); interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
               string "org.bluez.Device1"
               array [
                  dict entry(
                     string "Connected"
                     variant             boolean false
                  )
               ]
               array [
               ]
            """
    }

    @Test("a recording is read as calls, answers and signals; handles, addresses and values give way to UUIDs and sizes; nothing after the client left")
    func normalised() {
        let transcript = BusTranscript(monitorOutput: Self.recording(handle: "0017", connectReplyFirst: false))
        #expect(transcript.lines == [
            "call Device1.Connect hci0/dev",
            "changed hci0/dev Device1 Connected=true RSSI",
            "return Device1.Connect hci0/dev",
            "added hci0/dev/service:aquavate-0 GattService1",
            "added hci0/dev/service:aquavate-0/char:aquavate-1 GattCharacteristic1",
            "call GattCharacteristic1.WriteValue hci0/dev/service:aquavate-0/char:aquavate-1 4 bytes",
            "changed hci0/dev/service:aquavate-0/char:aquavate-1 GattCharacteristic1 Value=14B",
            "error org.bluez.Error.Failed to GattCharacteristic1.WriteValue hci0/dev/service:aquavate-0/char:aquavate-1",
        ])
        // Another bottle's handles are the same transcript.
        #expect(BusTranscript(monitorOutput: Self.recording(handle: "002a", connectReplyFirst: false)) == transcript)
    }

    @Test("a line in the other place is moved, a line in one only is missing; only the allowances let them pass")
    func differences() {
        let real = BusTranscript(monitorOutput: Self.recording(handle: "0017", connectReplyFirst: false)).lines
        let simulated = BusTranscript(monitorOutput: Self.recording(handle: "0017", connectReplyFirst: true)).lines
        #expect(SimulatorAgreement.differences(real: real, simulated: simulated).map(\.kind) == [.moved])
        #expect(SimulatorAgreement.unexplained(real: real, simulated: simulated).isEmpty, "the Connect reply's place is an allowance")

        let withoutWrite = simulated.filter { !$0.hasPrefix("call GattCharacteristic1.WriteValue") }
        #expect(SimulatorAgreement.unexplained(real: real, simulated: withoutWrite).map(\.line) == [real[5]],
                "a call the simulator's run lacks fails")
        let twoReplies = simulated + ["return Device1.Connect hci0/dev"]
        #expect(SimulatorAgreement.unexplained(real: real, simulated: twoReplies).map(\.kind) == [.simulatorOnly],
                "a line that may move must still come as often")
        var swapped = real
        swapped.swapAt(4, 5)
        #expect(SimulatorAgreement.unexplained(real: real, simulated: swapped).map(\.kind) == [.moved], "other lines keep their place")
        #expect(SimulatorAgreement.differences(real: real, simulated: real).isEmpty)
    }

    @Test("an allowance's … stands for any text, and only for the kinds it names")
    func allowances() {
        let mtu = SimulatorAgreement.Allowance([.simulatorOnly], "changed hci0/dev/service:…/char:… GattCharacteristic1 MTU=…", "")
        let line = "changed hci0/dev/service:0x180a/char:0x2a29 GattCharacteristic1 MTU=247"
        #expect(mtu.covers(.init(kind: .simulatorOnly, line: line)))
        #expect(!mtu.covers(.init(kind: .realOnly, line: line)))
        #expect(!mtu.covers(.init(kind: .simulatorOnly, line: "changed hci0/dev Device1 MTU=247")))
        #expect(mtu.covers(.init(kind: .simulatorOnly, line: line + " Value=3B")), "… at the end takes the rest")
        let exact = SimulatorAgreement.Allowance([.realOnly], "added hci0/dev Battery1", "")
        #expect(!exact.covers(.init(kind: .realOnly, line: "added hci0/dev Battery1 Device1")))
    }
}
