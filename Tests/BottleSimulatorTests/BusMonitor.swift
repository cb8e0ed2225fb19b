// dbus-monitor on the private bus: the exact order in which the simulator's signals and replies
// cross the bus, which is what a BlueZ client actually observes (a signal queued before a reply
// is read before it). The verbose output is parsed into one short line per event, e.g.
//   call Connect
//   changed dev_F4_12_FA_00_A3_F4 Device1.Connected=true
//   added service0017
//   reply Connect
import Foundation

final class BusMonitor: Sendable {
    let logName: String
    let bus: PrivateBus

    private init(bus: PrivateBus, logName: String) {
        self.bus = bus
        self.logName = logName
    }

    /// Starts dbus-monitor and waits until it is attached (it reports losing its own name).
    static func start(on bus: PrivateBus) async throws -> BusMonitor {
        let name = "monitor-\(UUID().uuidString.prefix(6))"
        _ = try bus.spawn("/usr/bin/dbus-monitor", ["--address", bus.address], logName: name)
        let monitor = BusMonitor(bus: bus, logName: name)
        let deadline = ContinuousClock.now + .seconds(10)
        while !bus.log(name).contains("member=NameLost") {
            guard ContinuousClock.now < deadline else { throw HarnessFailure(description: "dbus-monitor did not attach") }
            try await Task.sleep(for: .milliseconds(10))
        }
        return monitor
    }

    /// The events between `client` and `server` so far, in wire order.
    func events(client: String, server: String) -> [String] {
        Self.parse(bus.log(logName), client: client, server: server)
    }

    /// Waits until an event line satisfies `predicate`, then returns all events.
    func waitFor(_ what: String, client: String, server: String, timeout: Duration = .seconds(10),
                 _ predicate: (String) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let events = events(client: client, server: server)
            if events.contains(where: predicate) { return events }
            guard ContinuousClock.now < deadline else {
                throw HarnessFailure(description: "\(what) not seen on the bus within \(timeout); saw \(events)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: - Parsing dbus-monitor's verbose format

    private struct Block {
        var header: String
        var body: [String]

        func field(_ name: String) -> String? {
            guard let range = header.range(of: name + "=") else { return nil }
            let rest = header[range.upperBound...]
            let end = rest.firstIndex { $0 == " " || $0 == ";" } ?? rest.endIndex
            return String(rest[..<end])
        }
    }

    static func parse(_ text: String, client: String, server: String) -> [String] {
        var blocks: [Block] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(" ") {
                if !blocks.isEmpty { blocks[blocks.count - 1].body.append(String(line)) }
            } else if !line.isEmpty {
                blocks.append(Block(header: String(line), body: []))
            }
        }
        var members: [String: String] = [:]
        var events: [String] = []
        for block in blocks {
            let sender = block.field("sender")
            if block.header.hasPrefix("method call"), sender == client, let serial = block.field("serial") {
                let member = block.field("member") ?? "?"
                members[serial] = member
                events.append("call \(member)")
            } else if block.header.hasPrefix("method return"), sender == server, block.field("destination") == client,
                let serial = block.field("reply_serial"), let member = members[serial] {
                events.append("reply \(member)")
            } else if block.header.hasPrefix("error"), sender == server, block.field("destination") == client,
                let serial = block.field("reply_serial"), let member = members[serial] {
                events.append("error \(member) \(block.field("error_name") ?? "?")")
            } else if block.header.hasPrefix("signal"), sender == server {
                events += signalEvents(block)
            }
        }
        return events
    }

    private static func lastElement(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    private static func quoted(_ line: String) -> String? {
        guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { return nil }
        return String(line[line.index(after: first)..<last])
    }

    private static func signalEvents(_ block: Block) -> [String] {
        let member = block.field("member") ?? ""
        let path = lastElement(block.field("path") ?? "")
        switch member {
        case "InterfacesAdded", "InterfacesRemoved":
            let object = block.body.first.flatMap(quoted).map(lastElement) ?? "?"
            return ["\(member == "InterfacesAdded" ? "added" : "removed") \(object)"]
        case "PropertiesChanged":
            var events: [String] = []
            var argument = -1
            var interface = ""
            var key: String?
            var collectingBytes: String?
            var bytes = 0
            for line in block.body {
                let indent = line.prefix { $0 == " " }.count
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let name = collectingBytes {
                    if trimmed.hasPrefix("]") {
                        events.append("changed \(path) \(interface).\(name)=\(bytes) bytes")
                        collectingBytes = nil
                    } else {
                        bytes += trimmed.split(separator: " ").count
                    }
                    continue
                }
                if indent == 3 {
                    argument += 1
                    if argument == 0 { interface = String((quoted(trimmed) ?? "").split(separator: ".").last ?? "") }
                    continue
                }
                if argument == 1, indent == 9, trimmed.hasPrefix("string"), key == nil {
                    key = quoted(trimmed)
                } else if argument == 1, indent == 9, trimmed.hasPrefix("variant"), let name = key {
                    let value = trimmed.dropFirst("variant".count).trimmingCharacters(in: .whitespaces)
                    if value.hasPrefix("array of bytes [") && !value.hasSuffix("]") {
                        collectingBytes = name
                        bytes = 0
                    } else if value.hasPrefix("array of bytes") {
                        events.append("changed \(path) \(interface).\(name)=bytes")
                    } else {
                        let shown = value.split(separator: " ").last.map(String.init) ?? value
                        events.append("changed \(path) \(interface).\(name)=\(shown)")
                    }
                    key = nil
                } else if argument == 2, indent == 6, trimmed.hasPrefix("string"), let name = quoted(trimmed) {
                    events.append("invalidated \(path) \(interface).\(name)")
                }
            }
            return events
        default:
            return ["signal \(member) \(path)"]
        }
    }
}
