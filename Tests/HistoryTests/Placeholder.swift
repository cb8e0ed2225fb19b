import Testing

@Test func placeholder_HistoryTests() { #expect(Bool(true)) }
