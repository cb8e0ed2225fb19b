import Foundation
import AquavateProtocol
import Timekeeping

/// Turns the text of one line into a header or an event with JSONDecoder, and applies
/// docs/design.md 3.3's rules as the keys are read (`CaptureHeaderLine`, `CaptureEventLine`). It
/// remembers the time of the last accepted event, because an event earlier than it is rejected.
struct CaptureLineParser {
    let file: String
    private let decoder = JSONDecoder()
    private var lastTime: WallInstant?
    private var lastTimeLine = 0

    init(file: String) {
        self.file = file
    }

    /// Parses the header line (the file's first non-blank line).
    func header(_ line: Data, number: Int) -> CaptureItem {
        switch decode(CaptureHeaderLine.self, line, expected: #"{"aqcap":1,…}"#) {
        case .failure(.notAnObject(let message)):
            return error(number, "first line is not an aqcap header: " + message)
        case .failure(.refused(let message)):
            return error(number, message)
        case .success(let line):
            return .header(line.header)
        }
    }

    /// Parses an event line; an accepted event becomes the new "previous" for time order.
    mutating func event(_ line: Data, number: Int) -> CaptureItem {
        switch decode(CaptureEventLine.self, line, expected: #"{"t":…,"op":…}"#) {
        case .failure(.notAnObject(let message)):
            return error(number, message)
        case .failure(.refused(let message)):
            return error(number, message)
        case .success(let line):
            let event = line.event
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

    private enum Failure: Error {
        /// Not JSON, or JSON but not an object: the header says so after its own prefix.
        case notAnObject(String)
        /// An object whose keys break a rule of 3.3.
        case refused(String)
    }

    /// The line decoded. JSONDecoder parses the line's structure before the line type reads a key,
    /// so a line that is not JSON at all is a `dataCorrupted` at the top and one that is not an
    /// object a `typeMismatch` (or, for `null`, a `valueNotFound`) there; every other refusal is the
    /// line type's own `CaptureLineProblem`.
    private func decode<Line: Decodable>(_ type: Line.Type, _ line: Data, expected: String) -> Result<Line, Failure> {
        do {
            return .success(try decoder.decode(Line.self, from: line))
        } catch CaptureLineProblem.notJSON(let detail) {
            return .failure(.notAnObject("not JSON" + (detail.map { " (\($0))" } ?? "")))
        } catch CaptureLineProblem.refused(let message) {
            return .failure(.refused(message))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            return .failure(.notAnObject("not JSON"))
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            return .failure(.notAnObject("JSON but not an object: expected \(expected)"))
        } catch DecodingError.valueNotFound(_, let context) where context.codingPath.isEmpty {
            return .failure(.notAnObject("JSON but not an object: expected \(expected)"))
        } catch {
            // Not reached: every key is read through `CaptureLineFields.swift`, which turns JSONDecoder's
            // errors into problems. Should that change, still one line saying what.
            return .failure(.refused("unreadable line: " + String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")))
        }
    }
}
