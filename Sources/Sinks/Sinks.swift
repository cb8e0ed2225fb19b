// Sinks: laid out by the foundation issue; built by a later issue (see README.md, "Architecture").
import CMosquitto

public enum SinksModule {
    public static let name = "Sinks"
}
