// A setting with the type of its value. The dotted name, the kind of text it accepts (with its
// range), the default, who may change it and whether a bottle may have its own are written once,
// in the table of Setting.swift; code reads a setting as `configuration[Setting.dailyLimit]` and
// gets a `Bool`, so that a misspelt name is a compile error rather than a silent default.

import Foundation

/// One setting, typed.
package struct TypedKey<Value: Sendable>: Sendable {
    /// What `config set/get/list`, the file and `--set` know of it (name, kind, default text).
    package let entry: SettingKey
    /// The value of its canonical text (already checked by `entry.normalize`).
    let decode: @Sendable (String) -> Value?
    /// The value when the setting is unset and has no default text.
    let fallback: @Sendable () -> Value

    init(_ entry: SettingKey, decode: @escaping @Sendable (String) -> Value?, fallback: @escaping @Sendable () -> Value) {
        self.entry = entry
        self.decode = decode
        self.fallback = fallback
    }

    /// The dotted name (`reminders.daily_limit`).
    package var name: String { entry.name }
    /// Whether a bottle may have its own (`bottle.<ID>.<name>`, docs/design.md 6).
    package var perBottle: Bool { entry.perBottle }

    /// The value of a canonical text, or the fallback.
    package func value(of text: String?) -> Value {
        text.flatMap(decode) ?? fallback()
    }
}

extension TypedKey where Value == Bool {
    static func flag(_ name: String, default value: Bool, _ summary: String, access: SettingAccess = .installation,
                     perBottle: Bool = false) -> TypedKey<Bool> {
        TypedKey(SettingKey(name, .bool, default: String(value), summary, access: access, perBottle: perBottle),
                 decode: { $0 == "true" }, fallback: { value })
    }
}

extension TypedKey where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enum's cases, written as its raw value: the choices the check offers and the
    /// value read back both come from the enum, so a new case is a new choice and no caller
    /// parses the text again.
    static func choice(_ name: String, default value: Value, _ summary: String,
                       access: SettingAccess = .installation) -> TypedKey<Value> {
        TypedKey(SettingKey(name, .choice(Value.allCases.map(\.rawValue)), default: value.rawValue, summary, access: access),
                 decode: { Value(rawValue: $0) }, fallback: { value })
    }
}

extension TypedKey {
    /// One of an enum's cases or none: a `choice` without a default of its own (unset reads as nil).
    static func optionalChoice<Choice>(_ name: String, _ summary: String, access: SettingAccess = .installation) -> TypedKey<Choice?>
    where Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
        TypedKey<Choice?>(SettingKey(name, .choice(Choice.allCases.map(\.rawValue)), default: nil, summary, access: access),
                          decode: { Choice(rawValue: $0) }, fallback: { nil })
    }
}

extension TypedKey where Value == Int {
    static func integer(_ name: String, _ range: ClosedRange<Int>, default value: Int, _ summary: String,
                        access: SettingAccess = .installation, perBottle: Bool = false) -> TypedKey<Int> {
        TypedKey(SettingKey(name, .integer(range), default: String(value), summary, access: access, perBottle: perBottle),
                 decode: { Int($0) }, fallback: { value })
    }
}

extension TypedKey where Value == Int? {
    /// A whole number with no default of its own (the caller computes one).
    static func optionalInteger(_ name: String, _ range: ClosedRange<Int>, _ summary: String,
                                access: SettingAccess = .installation, perBottle: Bool = false, formerNames: [String] = []) -> TypedKey<Int?> {
        TypedKey(SettingKey(name, .integer(range), default: nil, summary, access: access, perBottle: perBottle, formerNames: formerNames),
                 decode: { Int($0) }, fallback: { nil })
    }
}

extension TypedKey where Value == String? {
    /// Text of some kind (a URL, a path, a name), unset unless configured.
    static func text(_ name: String, kind: SettingKind = .text, _ summary: String, access: SettingAccess = .installation,
                     secret: Bool = false, perBottle: Bool = false) -> TypedKey<String?> {
        TypedKey(SettingKey(name, kind, default: nil, summary, access: access, secret: secret, perBottle: perBottle),
                 decode: { $0.isEmpty ? nil : $0 }, fallback: { nil })
    }
}

extension TypedKey where Value == String {
    /// Text with a default (a prefix, a choice).
    static func text(_ name: String, kind: SettingKind = .text, default value: String, _ summary: String,
                     access: SettingAccess = .installation) -> TypedKey<String> {
        TypedKey(SettingKey(name, kind, default: value, summary, access: access),
                 decode: { $0 }, fallback: { value })
    }
}
