// Reads the TOML config file (docs/design.md 3.2) with TOMLKit into dotted text values.
//
// Tables become prefixes (`[reminders] daily_limit = true` → `reminders.daily_limit`), so the
// file, `config set` and `--set` all speak the same key names. `[[schedule]]` arrays are kept
// apart as one dictionary per table.

import Foundation
import TOMLKit

struct ParsedConfigFile {
    var values: [String: String] = [:]
    var schedules: [[String: String]] = []
    var warnings: [String] = []
}

enum ConfigFileParser {
    static func parse(_ text: String, path: String) throws(ConfigFileError) -> ParsedConfigFile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(path: path, line: Int(error.source.begin.line), message: error.description)
        } catch {
            throw .syntax(path: path, line: nil, message: "\(error)")
        }
        var parsed = ParsedConfigFile()
        flatten(table, prefix: "", into: &parsed, path: path)
        return parsed
    }

    private static func flatten(_ table: TOMLTable, prefix: String, into parsed: inout ParsedConfigFile, path: String) {
        for (name, value) in table {
            let key = prefix.isEmpty ? name : "\(prefix).\(name)"
            if prefix.isEmpty, name == "schedule", let array = value.array {
                for element in array {
                    guard let entry = element.table else {
                        parsed.warnings.append("\(path): every [[schedule]] entry must be a table; one was skipped")
                        continue
                    }
                    var fields: [String: String] = [:]
                    for (field, fieldValue) in entry {
                        if let text = scalarText(fieldValue) {
                            fields[field] = text
                        } else if let list = fieldValue.array {
                            fields[field] = list.compactMap(scalarText).joined(separator: ",")
                        }
                    }
                    parsed.schedules.append(fields)
                }
            } else if let nested = value.table {
                flatten(nested, prefix: key, into: &parsed, path: path)
            } else if let text = scalarText(value) {
                parsed.values[key] = text
            } else {
                parsed.warnings.append("\(path): key '\(key)' has a value of an unsupported kind; ignored")
            }
        }
    }

    private static func scalarText(_ value: TOMLValueConvertible) -> String? {
        if let bool = value.bool { return bool ? "true" : "false" }
        if let int = value.int { return String(int) }
        if let double = value.double { return String(double) }
        if let string = value.string { return string }
        return nil
    }
}
