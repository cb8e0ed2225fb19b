// What the household keeps in the history between starts (`engine_state` rows), as JSON by
// Codable. Each reads what every earlier version wrote (JSONSerialization, keys sorted): a field
// that is missing or of another type is taken as never saved, on its own, as before, so one odd
// field never costs the others.

import MQTT

/// `household-replication`: what this bridge published and heard, and the epochs it answered.
struct HouseholdReplicationState: WireMessage, Decodable, Equatable {
    /// The latest change of this bridge's drinks it published (absent: none yet).
    var publishedUpTo: Double?
    /// This bridge's own hello epoch.
    var epoch: String?
    /// Per member, the hello epoch this bridge answered.
    var answered: [String: String] = [:]
    /// Per member, the latest change of its drinks this bridge holds.
    var heardUpTo: [String: Double] = [:]

    enum CodingKeys: String, CodingKey {
        case publishedUpTo = "published_up_to", epoch, answered, heardUpTo = "heard_up_to"
    }

    init(publishedUpTo: Double?, epoch: String?, answered: [String: String], heardUpTo: [String: Double]) {
        self.publishedUpTo = publishedUpTo.flatMap { $0.isFinite ? $0 : nil }
        self.epoch = epoch
        self.answered = answered
        self.heardUpTo = heardUpTo.filter { $0.value.isFinite }
    }

    init(from decoder: any Decoder) throws {
        let saved = try decoder.container(keyedBy: CodingKeys.self)
        publishedUpTo = (try? saved.decodeIfPresent(Double.self, forKey: .publishedUpTo)) ?? nil
        epoch = (try? saved.decodeIfPresent(String.self, forKey: .epoch)) ?? nil
        answered = ((try? saved.decodeIfPresent([String: String].self, forKey: .answered)) ?? nil) ?? [:]
        heardUpTo = ((try? saved.decodeIfPresent([String: Double].self, forKey: .heardUpTo)) ?? nil) ?? [:]
    }

    /// The saved state; an empty one when there is none or it is not JSON.
    static func read(_ json: String?) -> Self {
        json.flatMap { WireJSON.read(Self.self, from: Array($0.utf8)) } ?? Self(publishedUpTo: nil, epoch: nil, answered: [:], heardUpTo: [:])
    }
}

/// `household-sender`: the count of this bridge's starts (HouseholdSeal's `boot`).
struct HouseholdSenderState: WireMessage, Decodable, Equatable {
    var boot: UInt64

    /// The saved count; 0 when there is none or it is not a count.
    static func read(_ json: String?) -> UInt64 {
        json.flatMap { WireJSON.read(Self.self, from: Array($0.utf8)) }?.boot ?? 0
    }
}

/// `household-dropped`: the messages not believed, by reason (HouseholdDropReason's raw values).
struct HouseholdDropsState: WireMessage, Decodable, Equatable {
    var dropped: [String: Int]

    init(_ counts: [HouseholdDropReason: Int]) {
        dropped = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }

    /// The counts by reason; a reason this version does not know is left out.
    static func read(_ json: String?) -> [HouseholdDropReason: Int] {
        guard let saved = json.flatMap({ WireJSON.read(Self.self, from: Array($0.utf8)) }) else { return [:] }
        var result: [HouseholdDropReason: Int] = [:]
        for (name, count) in saved.dropped {
            if let reason = HouseholdDropReason(rawValue: name) { result[reason] = count }
        }
        return result
    }
}

/// `household-deletions`: the latest deletion of another member's hand-added drink this bridge
/// told the household of (absent: none yet, so every such deletion held is told once).
struct HouseholdDeletionsState: WireMessage, Decodable, Equatable {
    var toldUpTo: Double?

    enum CodingKeys: String, CodingKey {
        case toldUpTo = "told_up_to"
    }

    init(toldUpTo: Double?) {
        self.toldUpTo = toldUpTo.flatMap { $0.isFinite ? $0 : nil }
    }

    init(from decoder: any Decoder) throws {
        let saved = try decoder.container(keyedBy: CodingKeys.self)
        toldUpTo = ((try? saved.decodeIfPresent(Double.self, forKey: .toldUpTo)) ?? nil).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The saved mark; none when there is none or it is not JSON.
    static func read(_ json: String?) -> Self {
        json.flatMap { WireJSON.read(Self.self, from: Array($0.utf8)) } ?? Self(toldUpTo: nil)
    }
}
