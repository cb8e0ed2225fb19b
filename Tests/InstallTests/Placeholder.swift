import Testing

@Test func placeholder_InstallTests() { #expect(Bool(true)) }
