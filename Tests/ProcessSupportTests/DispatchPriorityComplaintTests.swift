// DispatchPriorityComplaint: when libdispatch's manager thread can have nice -4 (the kernel's
// rule: a lower value needs RLIMIT_NICE or CAP_SYS_NICE), and that its logging is turned off only
// where it cannot and nobody chose a setting.

@testable import ProcessSupport
import Testing

@Suite struct DispatchPriorityComplaintTests {
    typealias Reach = DispatchPriorityComplaint.Reach

    @Test("an unprivileged process under the default limit may not lower its nice value, only raise it")
    func defaultLimitAllowsOnlyRaising() {
        let reach = Reach(currentNice: 0, niceLimit: 0, mayRenice: false)
        #expect(!reach.allows(-4))
        #expect(!reach.allows(-1))
        #expect(reach.allows(0))
        #expect(reach.allows(10))
    }

    @Test("RLIMIT_NICE allows down to 20 - limit: the unit's LimitNICE=-4 is a limit of 24")
    func limitAllowsDownToTwentyMinusIt() {
        #expect(Reach(currentNice: 0, niceLimit: 24, mayRenice: false).allows(-4))
        #expect(!Reach(currentNice: 0, niceLimit: 23, mayRenice: false).allows(-4))
        #expect(Reach(currentNice: 0, niceLimit: .max, mayRenice: false).allows(-20))
    }

    @Test("CAP_SYS_NICE, or a nice value already as low, allows it whatever the limit")
    func capabilityOrLowerNiceAllows() {
        #expect(Reach(currentNice: 0, niceLimit: 0, mayRenice: true).allows(-4))
        #expect(Reach(currentNice: -5, niceLimit: 0, mayRenice: false).allows(-4))
    }

    @Test("libdispatch's logging is turned off only out of reach and when nobody chose a setting")
    func logSetting() {
        let refused = Reach(currentNice: 0, niceLimit: 0, mayRenice: false)
        let service = Reach(currentNice: 0, niceLimit: 24, mayRenice: false)
        #expect(DispatchPriorityComplaint.logSetting(reach: refused, chosen: nil) == "NO")
        #expect(DispatchPriorityComplaint.logSetting(reach: refused, chosen: "stderr") == nil)
        #expect(DispatchPriorityComplaint.logSetting(reach: service, chosen: nil) == nil)
    }

    @Test("CAP_SYS_NICE is bit 23 of /proc/self/status's CapEff")
    func readsTheEffectiveCapabilities() {
        let root = "Name:\tx\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"
        let user = "Name:\tx\nCapEff:\t0000000000000000\n"
        #expect(DispatchPriorityComplaint.effectiveCapabilities(status: root).map(DispatchPriorityComplaint.hasSysNice) == true)
        #expect(DispatchPriorityComplaint.effectiveCapabilities(status: user).map(DispatchPriorityComplaint.hasSysNice) == false)
        #expect(DispatchPriorityComplaint.effectiveCapabilities(status: "Name:\tx\n") == nil)
        #expect(DispatchPriorityComplaint.hasSysNice(0x80_0000))
        #expect(!DispatchPriorityComplaint.hasSysNice(0x40_0000))
    }
}
