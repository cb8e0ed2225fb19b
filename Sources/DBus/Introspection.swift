// org.freedesktop.DBus.Introspectable: the XML description of an object path (its interfaces,
// methods, signals, properties and child nodes), which tools such as `gdbus introspect` and
// clients such as bleak's dbus-fast read.

import WireText

enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// The XML for `path`, or nil when nothing is exported at or below it (the root always answers).
    static func xml(for path: DBusObjectPath, in state: RegistryState) -> String? {
        let object = state.objects[path]
        let isManager = state.managers.contains(path)
        let below = Set(state.objects.keys).union(state.managers)
        let children = Set(below.compactMap { path.childElement(toward: $0) }).sorted()
        if object == nil && !isManager && children.isEmpty && path != .root { return nil }

        var lines = [doctype, "<node>"]
        lines += standardInterface(StandardInterface.introspectable)
        lines += standardInterface(StandardInterface.peer)
        if object != nil { lines += standardInterface(StandardInterface.properties) }
        if isManager { lines += standardInterface(StandardInterface.objectManager) }
        for interface in object ?? [] { lines += describe(interface) }
        for child in children { lines.append("  <node name=\"\(XMLText.escaped(child))\"/>") }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ interface: ExportedInterface) -> [String] {
        var lines = ["  <interface name=\"\(XMLText.escaped(interface.name))\">"]
        for method in interface.methods {
            lines.append("    <method name=\"\(XMLText.escaped(method.name))\">")
            lines += arguments(method.inputSignature, names: method.inputNames, direction: "in")
            lines += arguments(method.outputSignature, names: method.outputNames, direction: "out")
            lines.append("    </method>")
        }
        for signal in interface.signals {
            lines.append("    <signal name=\"\(XMLText.escaped(signal.name))\">")
            lines += arguments(signal.signature, names: signal.argumentNames, direction: nil)
            lines.append("    </signal>")
        }
        for property in interface.properties {
            lines.append("    <property name=\"\(XMLText.escaped(property.name))\" type=\"\(XMLText.escaped(property.signature.rawValue))\" "
                + "access=\"\(property.access.rawValue)\"/>")
        }
        lines.append("  </interface>")
        return lines
    }

    private static func arguments(_ signature: DBusSignature, names: [String], direction: String?) -> [String] {
        let types = (try? signature.completeTypes()) ?? []
        return types.enumerated().map { index, type in
            var attributes = ""
            if names.count == types.count { attributes += " name=\"\(XMLText.escaped(names[index]))\"" }
            attributes += " type=\"\(XMLText.escaped(type.rawValue))\""
            if let direction { attributes += " direction=\"\(direction)\"" }
            return "      <arg\(attributes)/>"
        }
    }

    /// The standard interfaces, described like GDBus and BlueZ describe them.
    private static func standardInterface(_ name: String) -> [String] {
        switch name {
        case StandardInterface.introspectable:
            return [
                "  <interface name=\"\(name)\">",
                "    <method name=\"Introspect\">",
                "      <arg name=\"xml\" type=\"s\" direction=\"out\"/>",
                "    </method>",
                "  </interface>",
            ]
        case StandardInterface.peer:
            return [
                "  <interface name=\"\(name)\">",
                "    <method name=\"Ping\"/>",
                "    <method name=\"GetMachineId\">",
                "      <arg name=\"machine_uuid\" type=\"s\" direction=\"out\"/>",
                "    </method>",
                "  </interface>",
            ]
        case StandardInterface.properties:
            return [
                "  <interface name=\"\(name)\">",
                "    <method name=\"Get\">",
                "      <arg name=\"interface\" type=\"s\" direction=\"in\"/>",
                "      <arg name=\"name\" type=\"s\" direction=\"in\"/>",
                "      <arg name=\"value\" type=\"v\" direction=\"out\"/>",
                "    </method>",
                "    <method name=\"Set\">",
                "      <arg name=\"interface\" type=\"s\" direction=\"in\"/>",
                "      <arg name=\"name\" type=\"s\" direction=\"in\"/>",
                "      <arg name=\"value\" type=\"v\" direction=\"in\"/>",
                "    </method>",
                "    <method name=\"GetAll\">",
                "      <arg name=\"interface\" type=\"s\" direction=\"in\"/>",
                "      <arg name=\"properties\" type=\"a{sv}\" direction=\"out\"/>",
                "    </method>",
                "    <signal name=\"PropertiesChanged\">",
                "      <arg name=\"interface\" type=\"s\"/>",
                "      <arg name=\"changed_properties\" type=\"a{sv}\"/>",
                "      <arg name=\"invalidated_properties\" type=\"as\"/>",
                "    </signal>",
                "  </interface>",
            ]
        default:  // ObjectManager
            return [
                "  <interface name=\"\(name)\">",
                "    <method name=\"GetManagedObjects\">",
                "      <arg name=\"objects\" type=\"a{oa{sa{sv}}}\" direction=\"out\"/>",
                "    </method>",
                "    <signal name=\"InterfacesAdded\">",
                "      <arg name=\"object\" type=\"o\"/>",
                "      <arg name=\"interfaces\" type=\"a{sa{sv}}\"/>",
                "    </signal>",
                "    <signal name=\"InterfacesRemoved\">",
                "      <arg name=\"object\" type=\"o\"/>",
                "      <arg name=\"interfaces\" type=\"as\"/>",
                "    </signal>",
                "  </interface>",
            ]
        }
    }
}
