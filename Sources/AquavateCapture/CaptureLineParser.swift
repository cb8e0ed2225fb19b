import Foundation
import AquavateProtocol
import Timekeeping

/// Turns the text of one line into a header or an event, with Foundation's JSON parser, and
/// applies docs/design.md 3.3's rules. It remembers the time of the last accepted event, because an
/// event earlier than it is rejected.
struct CaptureLineParser {
    let file: String
    private var lastTime: WallInstant?
    private var lastTimeLine = 0

    init(file: String) {
        self.file = file
    }

    /// Parses the header line (the file's first non-blank line).
    func header(_ line: Data, number: Int) -> CaptureItem {
        switch jsonObject(line, expected: #"{"aqcap":1,…}"#) {
        case .failure(let problem):
            return error(number, "first line is not an aqcap header: " + problem.message)
        case .success(let object):
            switch Self.header(from: object) {
            case .success(let header): return .header(header)
            case .failure(let problem): return error(number, problem.message)
            }
        }
    }

    /// Parses an event line; an accepted event becomes the new "previous" for time order.
    mutating func event(_ line: Data, number: Int) -> CaptureItem {
        let parsed = jsonObject(line, expected: #"{"t":…,"op":…}"#).flatMap { Self.event(from: $0) }
        switch parsed {
        case .failure(let problem):
            return error(number, problem.message)
        case .success(let event):
            if let lastTime, event.time < lastTime {
                return error(number, "out of time order: t \(event.time) is earlier than \(lastTime) on line \(lastTimeLine)")
            }
            lastTime = event.time
            lastTimeLine = number
            return .event(event, line: number)
        }
    }

    private func error(_ number: Int, _ message: String) -> CaptureItem {
        .error(CaptureLineError(file: file, line: number, message: message))
    }

    // MARK: JSON

    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private func jsonObject(_ line: Data, expected: String) -> Result<[String: Any], Problem> {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return .failure(Problem("not JSON" + (detail.map { " (\($0))" } ?? "")))
        }
        guard let object = value as? [String: Any] else {
            return .failure(Problem("JSON but not an object: expected \(expected)"))
        }
        return .success(object)
    }

    // MARK: Header

    static func header(from object: [String: Any]) -> Result<CaptureHeader, Problem> {
        guard let versionValue = object["aqcap"] else {
            return .failure(Problem("first line is not an aqcap header: no \"aqcap\" key; expected {\"aqcap\":1,…}"))
        }
        guard let version = integer(versionValue) else {
            return .failure(Problem("aqcap version is not an integer: \(describe(versionValue)); expected 1"))
        }
        guard version == CaptureHeader.currentVersion else {
            return .failure(Problem("unsupported aqcap version \(version); this reader knows version \(CaptureHeader.currentVersion)"))
        }
        var header = CaptureHeader(version: version)
        do {
            header.created = try optionalString(object, "created")
            header.source = try optionalString(object, "source")
            if let deviceValue = object["device"] {
                guard let device = deviceValue as? [String: Any] else {
                    return .failure(Problem("device is not an object: \(describe(deviceValue)); expected {\"name\":…,\"address\":…}"))
                }
                header.deviceName = try optionalString(device, "name", label: "device.name")
                header.deviceAddress = try optionalString(device, "address", label: "device.address")
            }
            if let mtuValue = object["mtu"] {
                guard let mtu = integer(mtuValue), (1...65535).contains(mtu) else {
                    return .failure(Problem("mtu is not an integer from 1 to 65535: \(describe(mtuValue))"))
                }
                header.mtu = mtu
            }
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem("\(error)"))
        }
        return .success(header)
    }

    // MARK: Event

    static func event(from object: [String: Any]) -> Result<CaptureEvent, Problem> {
        do {
            let time = try timeField(object)
            let op = try opField(object)
            var event = CaptureEvent(time: WallInstant(secondsSince1970: time), op: op)
            if let charText = try optionalString(object, "char") {
                guard let characteristic = CharacteristicRef(captureText: charText) else {
                    throw Problem("unknown char \(JSONText.quotedForMessage(charText)); expected a capture name (\(knownNames)) or a full UUID")
                }
                event.characteristic = characteristic
            }
            if let valueText = try optionalString(object, "value") {
                switch Hex.decode(valueText) {
                case .success(let bytes): event.value = bytes
                case .failure(.notHex):
                    throw Problem("value is not hex: \(JSONText.quotedForMessage(valueText))")
                case .failure(.oddLength(let count)):
                    throw Problem("value has an odd number of hex digits (\(count)): \(JSONText.quotedForMessage(valueText))")
                }
            }
            event.reason = try optionalString(object, "reason")
            event.text = try optionalString(object, "text")
            event.intakeType = try optionalString(object, "type")
            event.notificationID = try optionalString(object, "id")
            event.action = try optionalString(object, "action")
            if let problem = event.validationProblem() { throw Problem(problem) }
            return .success(event)
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem("\(error)"))
        }
    }

    private static let knownNames = Characteristic.allCases.map(\.captureName).joined(separator: ", ")

    private static func timeField(_ object: [String: Any]) throws -> Double {
        guard let value = object["t"] else { throw Problem("missing t (UTC seconds since 1970)") }
        guard let time = number(value) else {
            throw Problem("t is not a number: \(describe(value)); expected UTC seconds since 1970")
        }
        if let problem = CaptureTimeBounds.problem(with: time) { throw Problem(problem) }
        return time
    }

    private static func opField(_ object: [String: Any]) throws -> CaptureOp {
        guard let value = object["op"] else { throw Problem("missing op; expected one of \(opNames)") }
        guard let text = value as? String else { throw Problem("op is not a string: \(describe(value)); expected one of \(opNames)") }
        guard let op = CaptureOp(rawValue: text) else {
            throw Problem("unknown op \(JSONText.quotedForMessage(text)); expected one of \(opNames)")
        }
        return op
    }

    private static let opNames = CaptureOp.allCases.map(\.rawValue).joined(separator: ", ")

    // MARK: Typed access to JSONSerialization's values

    private static func optionalString(_ object: [String: Any], _ key: String, label: String? = nil) throws -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value as? String else {
            throw Problem("\(label ?? key) is not a string: \(describe(value))")
        }
        return text
    }

    /// A JSON number as a Double. JSON booleans are refused (Foundation hands them over as
    /// numbers). Foundation parses long decimals as NSDecimalNumber, whose `doubleValue` is not
    /// correctly rounded, so those go through their exact decimal text instead.
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        if number is NSDecimalNumber { return Double(number.stringValue) }
        return number.doubleValue
    }

    private static func integer(_ value: Any) -> Int? {
        guard let double = number(value), double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A JSON value shown in a message.
    private static func describe(_ value: Any) -> String {
        switch value {
        case let text as String: return JSONText.quotedForMessage(text)
        case let number as NSNumber: return isBoolean(number) ? (number.boolValue ? "true" : "false") : number.stringValue
        case is NSNull: return "null"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(type(of: value))"
        }
    }
}
