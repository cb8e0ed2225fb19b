// What a connection exports: interfaces with methods, properties and signals, and the call a
// method handler receives.
//
// Handlers come in three kinds because a BlueZ stand-in needs all three: `.immediate` runs on
// the owner thread in message order (a GATT write is applied before the read that follows it);
// `.task` runs in its own Task and replies when it returns (a `Disconnect` that answers two
// seconds later while other calls go on); `.deferred` runs in message order and replies later
// through a `DBusResponder`. Whatever a handler emits before its reply is sent before the reply:
// every outgoing message of a connection leaves through one FIFO queue.

/// One incoming method call.
package struct DBusMethodCall: Sendable {
    /// The caller's unique name, e.g. `:1.42` (BlueZ ties notify sessions to it).
    package var sender: String
    package var path: DBusObjectPath
    /// Nil when the caller left the interface out.
    package var interface: String?
    package var member: String
    package var arguments: [DBusValue]

    package init(sender: String, path: DBusObjectPath, interface: String?, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// How a method is answered. A thrown `DBusFailure` becomes that error reply; any other error
/// becomes `org.freedesktop.DBus.Error.Failed` with the error's description.
package enum MethodHandler: Sendable {
    /// Runs on the connection's owner thread, in message order; must return quickly and never
    /// block (no waiting on the same connection).
    case immediate(@Sendable (DBusMethodCall) throws -> [DBusValue])
    /// Runs in a new Task; the reply goes out when it returns. Calls handled this way may
    /// overlap each other.
    case task(@Sendable (DBusMethodCall) async throws -> [DBusValue])
    /// Runs on the owner thread in message order and replies later, from anywhere, through the
    /// responder (exactly once; a responder dropped without a reply answers `Failed`).
    case deferred(@Sendable (DBusMethodCall, DBusResponder) -> Void)
}

package struct ExportedMethod: Sendable {
    package var name: String
    /// The argument types the method takes; a call with other types gets `InvalidArgs`.
    package var inputSignature: DBusSignature
    /// The types of the reply; a handler returning other types gets a `Failed` reply instead.
    package var outputSignature: DBusSignature
    /// Argument names for introspection (optional; must match the number of complete types).
    package var inputNames: [String]
    package var outputNames: [String]
    package var handler: MethodHandler

    package init(
        _ name: String, input: DBusSignature = "", output: DBusSignature = "",
        inputNames: [String] = [], outputNames: [String] = [], handler: MethodHandler
    ) {
        self.name = name
        self.inputSignature = input
        self.outputSignature = output
        self.inputNames = inputNames
        self.outputNames = outputNames
        self.handler = handler
    }
}

package struct ExportedProperty: Sendable {
    package enum Access: String, Sendable {
        case read, write, readwrite
    }

    package var name: String
    package var signature: DBusSignature
    package var access: Access
    /// The current value; nil means the property does not exist yet (BlueZ's `Value` before the
    /// first read, `MTU` while disconnected): Get refuses it and GetAll leaves it out.
    package var value: DBusValue?
    /// Called on the owner thread when a peer sets the property, before the value is stored and
    /// `PropertiesChanged` is emitted; throw a `DBusFailure` to refuse. Nil: plain storage.
    package var onSet: (@Sendable (DBusValue, DBusMethodCall) throws -> Void)?

    package init(
        _ name: String, signature: DBusSignature, access: Access = .read, value: DBusValue? = nil,
        onSet: (@Sendable (DBusValue, DBusMethodCall) throws -> Void)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.access = access
        self.value = value
        self.onSet = onSet
    }
}

/// A signal an interface may emit, for introspection.
package struct ExportedSignal: Sendable {
    package var name: String
    package var signature: DBusSignature
    package var argumentNames: [String]

    package init(_ name: String, signature: DBusSignature = "", argumentNames: [String] = []) {
        self.name = name
        self.signature = signature
        self.argumentNames = argumentNames
    }
}

package struct ExportedInterface: Sendable {
    package var name: String
    package var methods: [ExportedMethod]
    package var properties: [ExportedProperty]
    package var signals: [ExportedSignal]

    package init(
        _ name: String, methods: [ExportedMethod] = [], properties: [ExportedProperty] = [],
        signals: [ExportedSignal] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// Throws unless every name and signature is valid and every initial value has its
    /// property's type.
    func validate() throws {
        try NameRules.requireInterface(name)
        for method in methods {
            try NameRules.requireMember(method.name)
            for signature in [method.inputSignature, method.outputSignature] where !signature.isValid {
                throw DBusInvalidSignature(signature: signature.rawValue)
            }
        }
        for property in properties {
            try NameRules.requireMember(property.name)
            guard property.signature.isSingleCompleteType else {
                throw DBusInvalidSignature(signature: property.signature.rawValue)
            }
            if let value = property.value { try Self.check(value, isOf: property) }
        }
        for signal in signals {
            try NameRules.requireMember(signal.name)
            if !signal.signature.isValid { throw DBusInvalidSignature(signature: signal.signature.rawValue) }
        }
    }

    static func check(_ value: DBusValue, isOf property: ExportedProperty) throws {
        guard value.signature == property.signature else {
            throw DBusTypeMismatch(
                expected: "type \"\(property.signature)\"", found: value.signature,
                context: "property \(property.name)")
        }
        try MessageEncoder.validateBody([value])
    }
}
