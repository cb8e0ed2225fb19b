// Do the bridges of the household agree (docs/design.md 6)? Asked on the broker of `mqtt.url`
// (sharing it is what makes them one household): each running bridge answers with its
// `bridge.id`, its clock and whether that clock is synchronised. Two bridges answering with one
// id fight over one persistent session; clocks more than 2 s apart make drinks and reminders
// disagree about time. Only a bridge with `household.key` can ask (the others answer no
// unsigned ping); the messages the daemon dropped (not signed with the key, replayed …) are
// counted in the history and reported here.

import Foundation
import History
import Household
import MQTT
import Settings
import Sinks

package enum HouseholdCheck {
    /// The largest clock difference between bridges that passes.
    static let tolerance = 2.0

    /// - Parameters:
    ///   - runningBridge: the PID of a daemon running on this history: the household is then not
    ///     asked (the question would go under the daemon's login, whose one connection on a broker
    ///     with `use_username_as_clientid` is the daemon's), and `heard` is what the daemon
    ///     recorded instead: the members whose signed messages it believed.
    package static func findings(url: String?, key: HouseholdKey?, drops: [HouseholdDropReason: Int], topicPrefix: String, ownID: String,
                                timeout: Duration, runningBridge: Int32? = nil, heard: [String] = []) async -> [DoctorFinding] {
        guard let url else { return [] }
        // libmosquitto is loaded at the first MQTT client: without it the daemon publishes nothing.
        if let problem = MosquittoLibrary.problem {
            return [DoctorFinding(.fail, "mqtt", problem, fix: "sudo apt-get install libmosquitto1")]
        }
        guard let key else {
            return [DoctorFinding(.warn, "household", HouseholdMembership.withoutKey,
                                  fix: "aquavate-bridge household create (the first bridge), then household join KEY on the others")]
        }
        var findings = [dropFinding(drops)]
        if let runningBridge {
            findings.append(heardFinding(heard, runningBridge: runningBridge, ownID: ownID))
            return findings
        }
        guard let answers = await HouseholdProbe.survey(url: url, key: key, topicPrefix: topicPrefix, timeout: timeout) else {
            return findings  // the broker finding says why
        }
        findings += judge(answers, ownID: ownID)
        return findings
    }

    /// What the daemon did not believe: nothing, or how much and why (someone on the broker
    /// writes household topics without the key, or sends recorded messages again).
    static func dropFinding(_ drops: [HouseholdDropReason: Int]) -> DoctorFinding {
        let total = drops.values.reduce(0, +)
        guard total > 0 else { return DoctorFinding(.ok, "household", "no household message was dropped: every one came from a member") }
        let reasons = drops.filter { $0.value > 0 }.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        return DoctorFinding(.warn, "household", "\(total) household message(s) were dropped (\(reasons.joined(separator: ", "))): "
                                 + "a client of the broker without household.key writes household topics, or a member misbehaves",
                             fix: "give each bridge its own broker password and the ACL of docs/household.md, so only bridges write their topics")
    }

    /// What the running daemon heard, in place of the question it would lose its connection to.
    static func heardFinding(_ heard: [String], runningBridge: Int32, ownID: String) -> DoctorFinding {
        let others = heard.filter { $0 != ownID }
        let members = others.isEmpty ? "no other member yet" : "\(others.count) other member(s): \(others.joined(separator: ", "))"
        return DoctorFinding(.ok, "household", "not asked from here: the running bridge (PID \(runningBridge)) holds this bridge's broker logins; "
                                 + "it has heard \(members) (their clocks are compared when no bridge runs here)")
    }

    /// The members a daemon on this history believed a signed `alive` message of, from the
    /// replay marks it keeps in the history (`<prefix>/household/alive/<member>`, signed by it).
    package static func heardMembers(_ marks: [HouseholdReplayMark], topicPrefix: String) -> [String] {
        let alive = "\(topicPrefix)/household/alive/"
        return Set(marks.filter { $0.topic == alive + $0.sender }.map(\.sender)).sorted()
    }

    /// The findings for what the bridges answered (one line each for ids and clocks).
    static func judge(_ answers: [HouseholdProbe.Answer], ownID: String) -> [DoctorFinding] {
        let subject = "household"
        guard !answers.isEmpty else {
            return [DoctorFinding(.ok, subject, "no bridge answered on this broker (this one, \(ownID), is not running)")]
        }
        var findings: [DoctorFinding] = []
        let byID = Dictionary(grouping: answers, by: \.bridge)
        let names = byID.keys.sorted().joined(separator: ", ")
        if let twice = byID.first(where: { Set($0.value.map(\.instance)).count > 1 })?.key {
            findings.append(DoctorFinding(.fail, subject, "\(Set(byID[twice]!.map(\.instance)).count) bridges answer as \(twice) on this broker",
                                          fix: "give each bridge its own name: aquavate-bridge config set bridge.id ROOM (on all but one of them)"))
        } else {
            findings.append(DoctorFinding(.ok, subject, "\(byID.count) bridge(s) share this broker, each with its own bridge.id: \(names)"))
        }
        // Each offset is known to within half its round trip: only what is surely apart counts.
        let offsets = answers.map { $0.clockOffset > 0 ? max(0, $0.clockOffset - $0.roundTrip / 2) : min(0, $0.clockOffset + $0.roundTrip / 2) }
        let spread = (offsets + [0]).max()! - (offsets + [0]).min()!
        let unsynchronised = answers.filter { !$0.synchronised }.map(\.bridge).sorted()
        if spread > tolerance || !unsynchronised.isEmpty {
            let worst = answers.max { abs($0.clockOffset) < abs($1.clockOffset) }!
            var detail = "the bridges' clocks differ by up to \(String(format: "%.1f", spread)) s (\(worst.bridge): "
                + "\(String(format: "%+.1f", worst.clockOffset)) s from this machine)"
            if !unsynchronised.isEmpty { detail += "; not synchronised: \(unsynchronised.joined(separator: ", "))" }
            findings.append(DoctorFinding(.warn, subject, detail,
                                          fix: "timedatectl set-ntp true on every bridge, then wait for 'System clock synchronized: yes'"))
        } else {
            findings.append(DoctorFinding(.ok, subject, "the bridges' clocks agree within \(String(format: "%.1f", spread)) s"))
        }
        return findings
    }
}
