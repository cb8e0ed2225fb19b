// Settings of one bottle of several (docs/design.md 6): `bottle.<ID>.<key>`, where ID is the
// bottle's serial or address and key one of `perBottle` (the person's goal, name and
// reminders). A bottle's key overrides the global key of the same name at the same level
// (file, `config set`, `--set`); the levels keep their order. Everything else is the house's.

import Foundation
import History

extension SettingCatalog {
    /// What a bottle may have of its own: its owner's name, goal and reminders (the typed keys
    /// marked `perBottle`, Setting.swift).
    package static let perBottle: [String] = [Setting.owner.name] + keys.filter(\.perBottle).map(\.name)

    /// `owner` exists only per bottle: the person the bottle belongs to, in notification titles.
    static var ownerKey: SettingKey { Setting.owner.entry }

    /// The key `bottle.<ID>.<key>` as a setting of its own (its base key's kind and access), with
    /// the ID in upper case; nil when `name` is not one.
    static func bottleKey(named name: String) -> SettingKey? {
        guard let (bottle, base, _) = splitBottleKey(name),
              let baseKey = base == ownerKey.name ? ownerKey : key(named: base) else { return nil }
        return SettingKey(bottleKeyName(bottle: bottle, base: base), baseKey.kind, default: nil,
                          "\(baseKey.summary), for bottle \(bottle)", access: baseKey.access, baseName: base, perBottle: true,
                          formerNames: baseKey.formerNames.map { bottleKeyName(bottle: bottle, base: $0) })
    }

    /// The canonical name of a bottle's setting.
    package static func bottleKeyName(bottle: String, base: String) -> String {
        "bottle.\(bottle.uppercased()).\(base)"
    }

    /// (ID, base key by its current name, base key as written) of `bottle.<ID>.<key>` with a
    /// known per-bottle base key (or a former name of one); nil otherwise.
    static func splitBottleKey(_ name: String) -> (bottle: String, base: String, givenBase: String)? {
        let parts = name.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "bottle", !parts[1].isEmpty,
              parts[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == ":" || $0 == "-" || $0 == "_" }) else { return nil }
        let givenBase = String(parts[2])
        let base = currentNames[givenBase] ?? givenBase
        guard perBottle.contains(base) else { return nil }
        return (String(parts[1]), base, givenBase)
    }
}

extension Configuration {
    /// The settings as one bottle sees them: its own keys (by any of `ids`, its serial and
    /// address, any case) in place of the global ones, level by level.
    package func forBottle(_ ids: [String]) -> Configuration {
        let wanted = Set(ids.map { $0.uppercased() })
        var copy = self
        func own(_ values: [String: String]) -> [String: String] {
            var result = values
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let (bottle, base, _) = SettingCatalog.splitBottleKey(name), wanted.contains(bottle.uppercased()) else { continue }
                result[base] = value
            }
            return result
        }
        copy.replaceLevels(file: own(fileValues), stored: own(storedValues), overrides: own(overrides))
        copy.bottleIDs = ids
        return copy
    }

    /// The name of the setting that gives `key` its value here: on a bottle's view, its own
    /// `bottle.<ID>.<key>` when it has one at any level (the one a change for this bottle must
    /// write, so that it neither misses the bottle nor changes every other bottle); else the
    /// global key.
    package func nameInEffect<Value>(_ key: TypedKey<Value>) -> String {
        guard key.perBottle, !bottleIDs.isEmpty else { return key.name }
        let wanted = Set(bottleIDs.map { $0.uppercased() })
        for level in [overrides, storedValues, fileValues] {
            for name in level.keys.sorted() {
                guard let (bottle, base, _) = SettingCatalog.splitBottleKey(name), base == key.name, wanted.contains(bottle.uppercased())
                else { continue }
                return SettingCatalog.bottleKeyName(bottle: bottle, base: base)
            }
        }
        return key.name
    }

    /// The settings as `bottle` sees them (its key, serial and address), or these settings when
    /// there is none: every surface that shows a bottle (status, the page, the API, /metrics, the
    /// history, the reminders) takes its values through here, so that they agree.
    package func effective(for bottle: BottleRecord?) -> Configuration {
        guard let bottle else { return self }
        return forBottle([bottle.id] + [bottle.serial, bottle.address].compactMap { $0 })
    }

    /// Every per-bottle setting given at any level, by name (for `config list`).
    package var bottleSettingNames: [String] {
        Set(fileValues.keys).union(storedValues.keys).union(overrides.keys)
            .filter { SettingCatalog.splitBottleKey($0) != nil }.sorted()
    }

    /// The bottle's owner, when one is set (`bottle.<ID>.owner`; on a `forBottle` view: `owner`).
    package var owner: String? { self[Setting.owner] }
}
