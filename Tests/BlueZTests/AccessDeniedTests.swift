// What the bridge says when the system bus refuses its call to BlueZ: the cause depends on whether
// the bridge's D-Bus policy names the caller (then the bus has not loaded the policy) or not (then
// the caller must be named: the service user or the bluetooth group).
import BlueZ
import DBus
import Testing

private let refusal = "Rejected send message, 2 matched rules; type=\"method_call\", sender=\":1.7\" (uid=997 pid=412)"

@Suite struct AccessDeniedTests {
    @Test(arguments: [BusCaller(user: "aquavate", groups: ["aquavate"]), BusCaller(user: "pi", groups: ["pi", "bluetooth"])])
    func aCallerThePolicyNamesIsToldToReloadTheBus(caller: BusCaller) {
        let text = BluetoothAccessDenied(detail: refusal, caller: caller).description
        #expect(text.contains("the bus has not loaded the policy"), "\(text)")
        #expect(text.contains("sudo systemctl reload dbus"), "\(text)")
        #expect(text.contains("/usr/share/dbus-1/system.d"), "\(text)")
        #expect(!text.contains("usermod"), "joining a group is not the fix for \(caller.user): \(text)")
        #expect(text.contains(refusal) && !text.contains("\n"), "one line, with the bus's own words: \(text)")
    }

    @Test func aCallerOutsideThePolicyIsToldHowToBeNamed() {
        let text = BluetoothAccessDenied(detail: refusal, caller: BusCaller(user: "pi", groups: ["pi", "users"])).description
        #expect(text.contains("sudo usermod -aG bluetooth pi"), "\(text)")
        #expect(text.contains("sudo -u aquavate"), "\(text)")
        #expect(!text.contains("reload"), "\(text)")
    }

    @Test func thisProcessKnowsItsUserAndGroups() {
        let caller = BusCaller.current()
        #expect(!caller.user.isEmpty)
        #expect(!caller.groups.isEmpty, "the primary group at least")
        #expect(caller.isNamed(users: [caller.user], groups: []))
        #expect(!caller.isNamed(users: [], groups: []))
    }
}
