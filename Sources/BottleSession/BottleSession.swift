// BottleSession: laid out by the foundation issue; built by a later issue (see README.md, "Architecture").
public enum BottleSessionModule {
    public static let name = "BottleSession"
}
