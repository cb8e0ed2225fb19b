// Why a sink could not be set up from its settings. Each description is one line naming the
// setting, what was wrong and what is expected, ready for the command line or the journal.

package enum SinkConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a URL of the expected shape.
    case invalidURL(setting: String, value: String, expected: String)
    /// A setting that names something (a topic prefix, a bottle id) has characters it cannot have.
    case invalidName(setting: String, value: String, expected: String)
    /// libmosquitto refused an option (TLS files, credentials, protocol).
    case mqttSetupFailed(String)
    /// libmosquitto, loaded at the first MQTT client (CMosquittoLoader), is not there or unusable.
    case mqttLibraryUnavailable(library: String, reason: String)
    /// A token or password would travel unencrypted to another machine.
    case credentialsOverPlainHTTP(setting: String, host: String)

    package var description: String {
        switch self {
        case let .invalidURL(setting, value, expected):
            return "\(setting) = \"\(value)\" is not a valid URL: expected \(expected)"
        case let .invalidName(setting, value, expected):
            return "\(setting) = \"\(value)\" is not usable: expected \(expected)"
        case let .mqttSetupFailed(reason):
            return "cannot set up the MQTT client: \(reason)"
        case let .mqttLibraryUnavailable(library, reason):
            return "\(library) could not be loaded (\(reason)): install the libmosquitto1 package"
        case let .credentialsOverPlainHTTP(setting, host):
            return "\(setting): the push token or password would go unencrypted to \(host) over http://; use https:// "
                + "(plain http:// is allowed only to this machine: 127.0.0.1, ::1, localhost)"
        }
    }
}
