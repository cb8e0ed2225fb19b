// Reminders: laid out by the foundation issue; built by a later issue (see README.md, "Architecture").
public enum RemindersModule {
    public static let name = "Reminders"
}
