// `--handle NAME=0xHHHH` of `import` and `replay`: which ATT value handle of a btsnoop capture is
// which characteristic, read the same way for both; a bad option is one line naming it.

import AquavateCapture
import AquavateProtocol

enum HandleOptions {
    /// Handle → characteristic of every `--handle` option given.
    static func map(_ options: [String]) throws -> [UInt16: Characteristic] {
        var handleMap: [UInt16: Characteristic] = [:]
        for option in options {
            do {
                let (handle, characteristic) = try BtsnoopImporter.parseHandleOption(option)
                handleMap[handle] = characteristic
            } catch {
                throw CommandFailure("--handle \(option): \(error)")
            }
        }
        return handleMap
    }
}
