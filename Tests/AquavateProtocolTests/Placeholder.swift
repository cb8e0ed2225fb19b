import Testing

@Test func placeholder_AquavateProtocolTests() { #expect(Bool(true)) }
