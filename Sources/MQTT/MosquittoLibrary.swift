// libmosquitto is loaded at the first MQTT client, not linked: linked, it and the libssl and
// libcrypto it brings cost every start of the bridge about 1 ms of CPU and 1.5 MiB of memory,
// MQTT or not (CMosquittoLoader.h has the measurements). Every client is made after `load()`,
// so a machine without libmosquitto1 gets one line saying what to install, and the rest of the
// bridge runs on.

import CMosquittoLoader
import Foundation

package enum MosquittoLibrary {
    /// The soname loaded (Debian's libmosquitto1).
    static let name = AQ_MOSQUITTO_LIBRARY

    /// Loads libmosquitto and runs `mosquitto_lib_init`, once per process; throws why not.
    static func load() throws(SinkConfigurationError) {
        if let failure = aq_mosquitto_load() {
            throw .mqttLibraryUnavailable(library: name, reason: String(cString: failure))
        }
    }

    /// Why MQTT cannot be used on this machine, in one line; nil when it can (`doctor`).
    package static var problem: String? {
        do {
            try load()
            return nil
        } catch {
            return error.description
        }
    }

    /// What loading `library` instead would say, without keeping it: the failure path of `load()`,
    /// which the process's one real load cannot show.
    static func check(_ library: String) -> SinkConfigurationError? {
        let reason = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 300) { why -> String? in
            aq_mosquitto_check(library, why.baseAddress!, why.count) ? nil : String(cString: why.baseAddress!)
        }
        return reason.map { .mqttLibraryUnavailable(library: library, reason: $0) }
    }

    /// libmosquitto's text for a result code (only after a successful `load()`: the code came
    /// from one of its functions).
    static func describe(_ code: Int32) -> String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            return String(cString: strerror(errno))
        }
        return String(cString: aq_mosquitto_strerror(code))
    }
}
