// What `aquavate-bridge doctor` found: one line per check, `ok` / `warn` / `FAIL`, and the fix.
//
// docs/design.md 3.1: the doctor says what is missing for live use, one line each, with the fix.
// A `FAIL` is something live use cannot work without (exit status 1); a `warn` is something
// that only limits it (desktop notifications without a desktop session).

/// The result of one check.
package struct DoctorFinding: Sendable, Equatable, CustomStringConvertible {
    package enum Status: String, Sendable {
        case ok
        case warn
        case fail = "FAIL"
    }

    package var status: Status
    /// What was checked, e.g. `bluetoothd`, `adapter`, `database`.
    package var subject: String
    /// What was found, in words.
    package var detail: String
    /// What to do about it (nil when nothing needs doing).
    package var fix: String?

    package init(_ status: Status, _ subject: String, _ detail: String, fix: String? = nil) {
        self.status = status
        self.subject = subject
        self.detail = detail
        self.fix = fix
    }

    /// `FAIL  bluetoothd: … ; fix: …` — the status padded so the subjects line up.
    package var description: String {
        let label = status.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
        return "\(label) \(subject): \(detail)" + (fix.map { "; fix: \($0)" } ?? "")
    }
}

/// Every finding of one doctor run, in the order the checks ran.
package struct DoctorReport: Sendable {
    package var findings: [DoctorFinding]

    package init(findings: [DoctorFinding]) { self.findings = findings }

    /// True when nothing live use needs is missing (warnings allowed): exit status 0.
    package var readyForLiveUse: Bool { !findings.contains { $0.status == .fail } }

    /// The findings about one subject.
    package func findings(about subject: String) -> [DoctorFinding] {
        findings.filter { $0.subject == subject }
    }
}
