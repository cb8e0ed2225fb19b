import Testing

@Test func placeholder_BlueZTests() { #expect(Bool(true)) }
