// The version of aquavate-bridge: the one place it is written. `aquavate-bridge --version` prints
// it, captures name it as their source, and `make deb` reads it from the built binary's
// `--version` for the package's version, so the two cannot disagree.

enum BridgeVersion {
    static let string = "0.1.0"
}
