import Testing

@Test func placeholder_BottleSimulatorTests() { #expect(Bool(true)) }
