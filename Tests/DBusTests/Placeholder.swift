import Testing

@Test func placeholder_DBusTests() { #expect(Bool(true)) }
