// The doctor's `clock` finding, from what the bridge trusts of this machine's clock (ClockTrust).

import HostClock

extension ClockTrust {
    /// The doctor's finding.
    package var finding: DoctorFinding {
        switch sync {
        case .synchronised:
            return DoctorFinding(.ok, "clock", "synchronised (NTP)")
        case .notSynchronised:
            return DoctorFinding(.warn, "clock", "not synchronised: SET_TIME is withheld, so the bottle keeps its own time",
                                 fix: "sudo timedatectl set-ntp true, then wait until timedatectl says 'System clock synchronized: yes'")
        case .unknown(let why):
            return DoctorFinding(.warn, "clock", "cannot tell whether it is synchronised (\(why))",
                                 fix: "check timedatectl; SET_TIME is still sent when the clock is not behind the stored drinks")
        }
    }
}
