import Testing

@Test func placeholder_RemindersTests() { #expect(Bool(true)) }
