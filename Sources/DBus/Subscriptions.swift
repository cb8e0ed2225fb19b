// Signal subscriptions on the owner thread: the table of match rules, the AddMatch/RemoveMatch
// calls, delivery of incoming signals to the matching streams, and the owner tracking that lets
// a rule name a well-known sender (`org.bluez`) while signals carry the unique name (`:1.7`).
//
// Ordering guarantee: a subscription is entered in the table before its AddMatch leaves, and
// `subscribe` returns only after the bus has answered the AddMatch; the bus handles one
// connection's messages in order, so any signal caused by a call made after `subscribe`
// returned is forwarded to us and delivered to the stream.
import CDBus
import Locking

final class SubscriptionEntry {
    let rule: MatchRule
    let buffer: EventQueue<DBusSignal>
    /// Called with each signal on the owner thread instead of buffering it (`subscribe(_:onOwnerThread:)`).
    let handler: (@Sendable (DBusSignal) -> Void)?
    init(rule: MatchRule, buffer: EventQueue<DBusSignal>, handler: (@Sendable (DBusSignal) -> Void)? = nil) {
        self.rule = rule
        self.buffer = buffer
        self.handler = handler
    }
}

extension ConnectionCore {
    static let busName = "org.freedesktop.DBus"

    /// Enters the subscription and asks the bus for its signals; `completion` runs when the bus
    /// has accepted (or refused) the rule.
    func addSubscription(
        id: UInt64, rule: MatchRule, buffer: EventQueue<DBusSignal>, handler: (@Sendable (DBusSignal) -> Void)? = nil,
        completion: @escaping (Result<Void, any Error>) -> Void
    ) {
        guard isOpen else {
            buffer.finish()
            completion(.failure(closedError))
            return
        }
        subscriptions[id] = SubscriptionEntry(rule: rule, buffer: buffer, handler: handler)
        if let sender = rule.sender, Self.needsOwnerTracking(sender) { retainNameWatch(sender) }
        callBusDriver("AddMatch", [.string(rule.text)]) { [self] result in
            switch result {
            case .success:
                completion(.success(()))
            case .failure(let error):
                if let entry = subscriptions.removeValue(forKey: id) {
                    entry.buffer.finish()
                    if let sender = rule.sender, Self.needsOwnerTracking(sender) { releaseNameWatch(sender) }
                }
                completion(.failure(error))
            }
        }
    }

    /// Removes the subscription and its match rule; `completion` (if any) runs when the bus has
    /// answered the RemoveMatch.
    func removeSubscription(id: UInt64, completion: ((Result<Void, any Error>) -> Void)?) {
        guard let entry = subscriptions.removeValue(forKey: id) else {
            completion?(.success(()))
            return
        }
        entry.buffer.finish()
        guard isOpen else {
            completion?(.success(()))
            return
        }
        callBusDriver("RemoveMatch", [.string(entry.rule.text)]) { result in
            completion?(result.map { _ in () })
        }
        if let sender = entry.rule.sender, Self.needsOwnerTracking(sender) { releaseNameWatch(sender) }
    }

    func finishAllSubscriptions() {
        for entry in subscriptions.values { entry.buffer.finish() }
        subscriptions.removeAll()
    }

    /// Hands an incoming signal to every subscription whose rule matches it.
    func routeSignal(_ message: Message) {
        let sender = message.sender
        let interface = message.interface
        let member = message.member
        if sender == Self.busName, interface == Self.busName, member == "NameOwnerChanged" {
            noteOwnerChange(message)
        }
        guard !subscriptions.isEmpty else { return }
        let path = message.path
        // The bus sends NameAcquired/NameLost to us whatever we subscribed to (P10): only a rule
        // that names the member gets them.
        let unsolicited = sender == Self.busName && (member == "NameAcquired" || member == "NameLost")
        var decoded: [DBusValue]?
        var decodeTried = false
        for entry in subscriptions.values {
            let rule = entry.rule
            if unsolicited && rule.member != member { continue }
            guard rule.matchesHeader(sender: sender, path: path, interface: interface, member: member, owner: { self.nameOwners[$0] })
            else { continue }
            if !decodeTried {
                decoded = try? message.arguments()
                decodeTried = true
            }
            guard let values = decoded else { continue }  // undecodable: dropped
            if rule.needsArguments && !rule.matchesArguments(values) { continue }
            let signal = DBusSignal(
                sender: sender ?? "", path: path ?? .root, interface: interface ?? "", member: member ?? "",
                destination: message.destination, arguments: values)
            if let handler = entry.handler { handler(signal) } else { entry.buffer.push(signal) }
        }
    }

    // MARK: - Owners of well-known names

    /// A unique name (`:1.7`) or the bus itself needs no lookup.
    static func needsOwnerTracking(_ sender: String) -> Bool {
        !sender.hasPrefix(":") && sender != busName
    }

    private func retainNameWatch(_ name: String) {
        nameWatchCounts[name, default: 0] += 1
        guard nameWatchCounts[name] == 1 else { return }
        // The owner-change rule goes first, then the lookup: changes seen before the lookup's
        // answer are older than it, changes after it are newer (the bus keeps our order).
        callBusDriver("AddMatch", [.string(Self.ownerRule(name).text)]) { _ in }
        callBusDriver("GetNameOwner", [.string(name)]) { [self] result in
            guard nameWatchCounts[name] != nil else { return }
            nameOwners[name] = (try? result.get())?.first?.string
        }
    }

    private func releaseNameWatch(_ name: String) {
        guard let count = nameWatchCounts[name] else { return }
        if count > 1 {
            nameWatchCounts[name] = count - 1
            return
        }
        nameWatchCounts[name] = nil
        nameOwners[name] = nil
        if isOpen { callBusDriver("RemoveMatch", [.string(Self.ownerRule(name).text)]) { _ in } }
    }

    private static func ownerRule(_ name: String) -> MatchRule {
        MatchRule(sender: busName, path: "/org/freedesktop/DBus", interface: busName, member: "NameOwnerChanged",
                  arguments: [0: name])
    }

    private func noteOwnerChange(_ message: Message) {
        guard !nameWatchCounts.isEmpty, let values = try? message.arguments(), values.count == 3,
            let name = values[0].string, nameWatchCounts[name] != nil, let newOwner = values[2].string
        else { return }
        nameOwners[name] = newOwner.isEmpty ? nil : newOwner
    }
}
