// DBus: laid out by the foundation issue; built by a later issue (see README.md, "Architecture").
import CDBus

public enum DBusModule {
    public static let name = "DBus"
}
