// What a BlueZ client said to org.bluez and heard back, read from `dbus-monitor`'s text output and
// normalised so that a run against the real bluetoothd and one against aquavate-sim can be compared
// line by line. Only what differs for reasons that are not BlueZ's is taken out: times, serials and
// unique names; the adapter's and the bottle's addresses (the object paths become `hci0`, `dev`);
// GATT handles, which bluetoothd derives from the bottle's attribute table (a GATT object becomes
// its UUID); and values, which hold the bottle's own data (a byte array becomes its size, a name or
// an RSSI its property name alone). What stays is every method call to org.bluez, in order, how
// it was answered (its reply or its error), every signal org.bluez sent about the adapter and the
// device the client used, and where each falls between the others.
import Foundation

struct BusTranscript: Equatable {
    /// One line per message, in the bus's order.
    var lines: [String]

    /// A message as dbus-monitor prints it: its header line and its indented body.
    private struct Message {
        var kind: String              // "method call", "method return", "error", "signal"
        var fields: [String: String]  // sender, destination, serial, reply_serial, path, interface, member, error_name
        var body: [String]
    }

    init(monitorOutput: String) {
        let messages = Self.messages(monitorOutput)
        // The client: whoever called org.bluez; bluetoothd: whoever answered those calls.
        let calls = messages.filter { $0.kind == "method call" && $0.fields["destination"] == "org.bluez" }
        let clients = Set(calls.compactMap { $0.fields["sender"] })
        var pending: [String: Message] = [:]  // "client serial" → the call
        for call in calls { pending["\(call.fields["sender"] ?? "") \(call.fields["serial"] ?? "")"] = call }
        let bluez = Set(messages.compactMap { message -> String? in
            guard message.kind == "method return" || message.kind == "error",
                  pending["\(message.fields["destination"] ?? "") \(message.fields["reply_serial"] ?? "")"] != nil
            else { return nil }
            return message.fields["sender"]
        })
        // The devices the client used, in the order it first called them (`dev`, then `dev2`, …);
        // signals about other devices (bluetoothd keeps those of earlier scenarios, and hears
        // strangers) are left out.
        var devices: [String] = []
        for device in calls.compactMap({ Self.device(of: $0.fields["path"] ?? "") }) where !devices.contains(device) {
            devices.append(device)
        }
        let names = Self.objectNames(messages, devices: devices)
        func concerned(_ path: String) -> Bool {
            guard let device = Self.device(of: path) else { return true }
            return devices.contains(device)
        }
        func call(_ message: Message) -> String {
            "\(Self.shortInterface(message.fields["interface"] ?? "")).\(message.fields["member"] ?? "") "
                + names(message.fields["path"] ?? "")
        }

        var lines: [String] = []
        // The client's connections on the bus: a signal sent while none is there was not heard.
        var present: Set<String> = []
        for message in messages {
            let sender = message.fields["sender"] ?? ""
            if clients.contains(sender) { present.insert(sender) }
            if message.kind == "signal", message.fields["member"] == "NameOwnerChanged",
               message.body.count == 3, message.body[2].trimmingCharacters(in: .whitespaces) == "string \"\"",
               let name = Self.quoted(message.body[0]) {
                present.remove(name)
            }
            if message.kind == "signal", present.isEmpty { continue }
            switch message.kind {
            case "method call" where clients.contains(sender) && message.fields["destination"] == "org.bluez":
                var line = "call " + call(message)
                if message.fields["member"] == "WriteValue", let size = Self.byteArraySizes(message.body).first {
                    line += " \(size) bytes"
                }
                lines.append(line)
            case "method return" where bluez.contains(sender), "error" where bluez.contains(sender):
                let key = "\(message.fields["destination"] ?? "") \(message.fields["reply_serial"] ?? "")"
                guard let asked = pending.removeValue(forKey: key) else { continue }
                if message.kind == "error" {
                    lines.append("error \(message.fields["error_name"] ?? "") to " + call(asked))
                } else {
                    lines.append("return " + call(asked))
                }
            case "signal" where bluez.contains(sender):
                let path = message.fields["path"] ?? ""
                switch message.fields["member"] {
                case "PropertiesChanged":
                    guard concerned(path) else { continue }
                    let interface = message.body.first.flatMap(Self.quoted) ?? ""
                    // The order of the properties within one signal means nothing to a client.
                    lines.append("changed \(names(path)) \(Self.shortInterface(interface)) "
                                 + Self.properties(message.body).sorted().joined(separator: " "))
                case "InterfacesAdded", "InterfacesRemoved":
                    guard let object = message.body.first.flatMap(Self.quoted), concerned(object) else { continue }
                    let interfaces = message.body.filter { Self.indent($0) == (message.fields["member"] == "InterfacesAdded" ? 9 : 6) }
                        .compactMap(Self.quoted).filter { $0.hasPrefix("org.bluez.") }.map(Self.shortInterface)
                    guard !interfaces.isEmpty else { continue }
                    let verb = message.fields["member"] == "InterfacesAdded" ? "added" : "removed"
                    lines.append("\(verb) \(names(object)) \(interfaces.joined(separator: ","))")
                default:
                    lines.append("signal \(message.fields["member"] ?? "") \(names(path))")
                }
            default:
                continue
            }
        }
        self.lines = Self.gattTableSorted(lines)
    }

    /// The GATT objects one service discovery adds come in the order of the bottle's attribute
    /// table, which is the bottle's and not BlueZ's: each run of them is sorted.
    private static func gattTableSorted(_ lines: [String]) -> [String] {
        var sorted: [String] = []
        var run: [String] = []
        for line in lines {
            if line.hasPrefix("added hci0/dev/") {
                run.append(line)
                continue
            }
            sorted += run.sorted()
            run = []
            sorted.append(line)
        }
        return sorted + run.sorted()
    }

    // MARK: Reading dbus-monitor's output

    private static func messages(_ text: String) -> [Message] {
        var messages: [Message] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let kind = ["method call", "method return", "error", "signal"].first(where: { line.hasPrefix($0 + " ") }) {
                var fields: [String: String] = [:]
                for word in line.dropFirst(kind.count).split(separator: " ") {
                    guard let equals = word.firstIndex(of: "=") else { continue }
                    var value = String(word[word.index(after: equals)...])
                    if value.hasSuffix(";") { value.removeLast() }
                    fields[String(word[..<equals])] = value
                }
                messages.append(Message(kind: kind, fields: fields, body: []))
            } else if line.hasPrefix(" "), !messages.isEmpty {
                messages[messages.count - 1].body.append(line)
            }
        }
        return messages
    }

    private static func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    /// The text between the first pair of double quotes.
    private static func quoted(_ line: String) -> String? {
        guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"")
        else { return nil }
        return String(line[line.index(after: open)..<close])
    }

    private static func shortInterface(_ name: String) -> String {
        name.hasPrefix("org.bluez.") ? String(name.dropFirst("org.bluez.".count)) : name
    }

    /// The sizes of the byte arrays in a body, in order. dbus-monitor prints an array of bytes as a
    /// string when every byte is printable (`array of bytes "abc" + \0`), else as hex, wrapped.
    static func byteArraySizes(_ body: [String]) -> [Int] {
        var sizes: [Int] = []
        var counting: Int?
        for line in body {
            let text = line.trimmingCharacters(in: .whitespaces)
            if var count = counting {
                if text.hasPrefix("]") {
                    sizes.append(count)
                    counting = nil
                } else {
                    count += text.split(separator: " ").count
                    counting = count
                }
                continue
            }
            guard let range = text.range(of: "array of bytes") else { continue }
            let rest = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            if rest.hasPrefix("\""), let close = rest.dropFirst().lastIndex(of: "\"") {
                let string = rest[rest.index(after: rest.startIndex)..<close]
                sizes.append(string.utf8.count + (rest.hasSuffix("+ \\0") ? 1 : 0))
            } else if rest.hasPrefix("[") {
                let inline = rest.dropFirst().trimmingCharacters(in: .whitespaces)
                if inline.hasSuffix("]") {
                    sizes.append(inline.dropLast().split(separator: " ").count)
                } else {
                    counting = inline.split(separator: " ").count
                }
            }
        }
        return sizes
    }

    /// The changed properties of a PropertiesChanged body, as `Name=value`: booleans and numbers
    /// as they are, a byte array as its size, anything else (names, addresses, lists) as its name
    /// alone. RSSI and TxPower are the radio's, and keep only their names.
    private static func properties(_ body: [String]) -> [String] {
        var properties: [String] = []
        var index = 0
        while index < body.count {
            let line = body[index]
            guard indent(line) == 9, line.trimmingCharacters(in: .whitespaces).hasPrefix("string \""),
                  let name = quoted(line), index + 1 < body.count
            else { index += 1; continue }
            let value = body[index + 1].trimmingCharacters(in: .whitespaces)
            let words = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if value.contains("array of bytes") {
                var rest = Array(body[(index + 1)...])
                rest[0] = value
                properties.append("\(name)=\(byteArraySizes(rest).first ?? 0)B")
            } else if words.count == 3, words[0] == "variant", name != "RSSI", name != "TxPower",
                      ["boolean", "byte", "int16", "uint16", "int32", "uint32"].contains(words[1]) {
                properties.append("\(name)=\(words[2])")
            } else {
                properties.append(name)
            }
            index += 2
        }
        // The invalidated ones (bluetoothd invalidates RSSI when discovery stops): the second
        // array, its strings at the first level.
        if let second = body.indices.dropFirst().first(where: { indent(body[$0]) == 3 && body[$0].hasSuffix("array [") && $0 > 1 }) {
            for line in body[(second + 1)...] where indent(line) == 6 {
                if let name = quoted(line) { properties.append("\(name):invalidated") }
            }
        }
        return properties
    }

    /// `/org/bluez/hci0/dev_AA_BB…` of a path under a device, nil for any other path.
    private static func device(of path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 4, parts[0] == "org", parts[1] == "bluez", parts[3].hasPrefix("dev_") else { return nil }
        return "/" + parts[0...3].joined(separator: "/")
    }

    /// A function naming an object path: `/`, `hci0`, `dev` (`dev2`, … for the client's other
    /// devices), or a GATT object by its UUID (short for the Bluetooth SIG's, `aquavate-N` for the
    /// bottle's), nested as in the tree.
    private static func objectNames(_ messages: [Message], devices: [String]) -> (String) -> String {
        // Every object's UUID, from InterfacesAdded and GetManagedObjects' reply: the last object
        // path seen as a key before a "UUID" property is the object it belongs to.
        var uuids: [String: String] = [:]
        for message in messages {
            var object: String?
            var lines = message.body.makeIterator()
            while let line = lines.next() {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("object path \"") {
                    object = quoted(text)
                } else if text == "string \"UUID\"", let object, let value = lines.next().flatMap(quoted) {
                    uuids[object] = value.lowercased()
                }
            }
        }
        func uuidName(_ uuid: String) -> String {
            if uuid.hasPrefix("6f75616b-7661-7465-2d00-") { return "aquavate-" + String(uuid.suffix(1)) }
            if uuid.hasPrefix("0000"), uuid.hasSuffix("-0000-1000-8000-00805f9b34fb") {
                return "0x" + uuid.dropFirst(4).prefix(4)
            }
            return uuid
        }
        return { path in
            guard path.hasPrefix("/org/bluez/") else { return path }
            let parts = path.split(separator: "/").map(String.init)
            var name = parts.count >= 3 ? parts[2] : path
            for depth in 3..<max(3, parts.count) {
                let prefix = "/" + parts[0...depth].joined(separator: "/")
                if depth == 3 {
                    let ordinal = (devices.firstIndex(of: prefix) ?? devices.count) + 1
                    name += parts[3].hasPrefix("dev_") ? (ordinal == 1 ? "/dev" : "/dev\(ordinal)") : "/" + parts[3]
                } else {
                    let kind = parts[depth].prefix { $0.isLetter }
                    name += "/\(kind):" + (uuids[prefix].map(uuidName) ?? "?")
                }
            }
            return name
        }
    }
}
