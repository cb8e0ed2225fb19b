# The test targets, one `swift test` process each; sourced by scripts/test.sh and scripts/tsan.sh.
targets=(LockingTests TimekeepingTests ArchitectureTests ProcessSupportTests AquavateProtocolTests AquavateCaptureTests HistoryTests RemindersTests BridgeTests
         DBusTests SinksTests BottleSimulatorTests BlueZTests InstallTests WebTests HomeAssistantTests)
