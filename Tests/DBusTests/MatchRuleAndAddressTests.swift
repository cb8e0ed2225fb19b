// Match rule text and bus address resolution, without a bus.
@testable import DBus
import BusTestSupport
import Testing

@Suite struct MatchRuleAndAddressTests {
    @Test func ruleTextListsEveryField() {
        let rule = MatchRule(
            sender: "org.bluez", pathNamespace: "/org/bluez", interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged", arguments: [0: "org.bluez.Device1"], argumentPaths: [1: "/org/bluez/"])
        #expect(rule.text == "type='signal',sender='org.bluez',path_namespace='/org/bluez',"
            + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
            + "arg0='org.bluez.Device1',arg1path='/org/bluez/'")
        #expect(MatchRule().text == "type='signal'")
    }

    @Test func apostrophesAreEscapedTheDBusWay() {
        #expect(MatchRule(arguments: [0: "it's"]).text == "type='signal',arg0='it'\\''s'")
    }

    @Test func invalidRulesAreRefused() {
        #expect(throws: DBusInvalidName.self) { try MatchRule(sender: "not a name").validate() }
        #expect(throws: DBusInvalidName.self) { try MatchRule(path: "/a", pathNamespace: "/a").validate() }
        #expect(throws: DBusInvalidName.self) { try MatchRule(arguments: [64: "x"]).validate() }
        #expect(throws: DBusInvalidName.self) { try MatchRule(member: "a.b").validate() }
    }

    @Test func headerMatching() {
        let owners = ["org.bluez": ":1.7"]
        func matches(_ rule: MatchRule, sender: String = ":1.7", path: DBusObjectPath = "/org/bluez/hci0") -> Bool {
            rule.matchesHeader(sender: sender, path: path, interface: "i.f", member: "M", owner: { owners[$0] })
        }
        #expect(matches(MatchRule(sender: "org.bluez")))
        #expect(!matches(MatchRule(sender: "org.bluez"), sender: ":1.8"))
        #expect(matches(MatchRule(sender: ":1.7")))
        #expect(matches(MatchRule(pathNamespace: "/org/bluez")))
        #expect(matches(MatchRule(pathNamespace: "/org/bluez/hci0")))
        #expect(matches(MatchRule(pathNamespace: "/")))
        #expect(!matches(MatchRule(pathNamespace: "/org/blue")))
        #expect(!matches(MatchRule(path: "/org/bluez")))
        #expect(!matches(MatchRule(interface: "i.g")))
        #expect(!matches(MatchRule(member: "N")))
    }

    @Test func argumentMatching() {
        let args: [DBusValue] = [.objectPath("/org/bluez/hci0/dev_1"), .string("org.bluez.Device1")]
        #expect(MatchRule(arguments: [1: "org.bluez.Device1"]).matchesArguments(args))
        #expect(!MatchRule(arguments: [1: "org.bluez.Device"]).matchesArguments(args))
        #expect(!MatchRule(arguments: [2: "x"]).matchesArguments(args))
        #expect(MatchRule(argumentPaths: [0: "/org/bluez/"]).matchesArguments(args))
        #expect(MatchRule(argumentPaths: [0: "/org/bluez/hci0/dev_1"]).matchesArguments(args))
        #expect(!MatchRule(argumentPaths: [0: "/org/bluez"]).matchesArguments(args))
        #expect(MatchRule(argumentPaths: [0: "/org/bluez/hci0/dev_1/service0010"])
            .matchesArguments([.string("/org/bluez/")]))
        #expect(MatchRule(arg0Namespace: "org.bluez").matchesArguments([.string("org.bluez.Device1")]))
        #expect(!MatchRule(arg0Namespace: "org.blue").matchesArguments([.string("org.bluez.Device1")]))
    }

    @Test func addressesComeFromTheEnvironmentAtResolveTime() throws {
        var env: [String: String] = [:]
        #expect(try BusAddress.system.resolve { env[$0] } == "unix:path=/var/run/dbus/system_bus_socket")
        env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/tmp/x/bus.sock"
        #expect(try BusAddress.system.resolve { env[$0] } == "unix:path=/tmp/x/bus.sock")
        #expect(throws: DBusConnectFailed.self) { try BusAddress.session.resolve { env[$0] } }
        env["XDG_RUNTIME_DIR"] = "/run/user/1000"
        #expect(try BusAddress.session.resolve { env[$0] } == "unix:path=/run/user/1000/bus")
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/tmp/s"
        #expect(try BusAddress.session.resolve { env[$0] } == "unix:path=/tmp/s")
        #expect(try BusAddress.address("tcp:host=x").resolve { env[$0] } == "tcp:host=x")
    }

    @Test func connectingToNothingFailsWithTheAddress() async throws {
        let error = await #expect(throws: DBusConnectFailed.self) {
            _ = try await BusConnection.connect(.address("unix:path=/nonexistent/dbus-test.sock"))
        }
        #expect(error?.address == "unix:path=/nonexistent/dbus-test.sock")
    }

    @Test func durationsBecomeLibdbusMilliseconds() {
        #expect(BusConnection.milliseconds(.milliseconds(250)) == 250)
        #expect(BusConnection.milliseconds(.microseconds(1500)) == 2)
        #expect(BusConnection.milliseconds(.seconds(-1)) == 0)
        #expect(BusConnection.milliseconds(.seconds(1_000_000_000)) == Int32.max - 1)
    }
}
