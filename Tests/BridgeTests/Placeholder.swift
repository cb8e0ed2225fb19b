import Testing

@Test func placeholder_BridgeTests() { #expect(Bool(true)) }
