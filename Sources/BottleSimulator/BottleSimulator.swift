// BottleSimulator: laid out by the foundation issue; built by a later issue (see README.md, "Architecture").
public enum BottleSimulatorModule {
    public static let name = "BottleSimulator"
}
