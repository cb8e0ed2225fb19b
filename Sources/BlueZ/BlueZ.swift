// BlueZ: laid out by the foundation issue; built by a later issue (see README.md, "Architecture").
public enum BlueZModule {
    public static let name = "BlueZ"
}
