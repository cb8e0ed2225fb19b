import Testing

@Test func placeholder_AquavateCaptureTests() { #expect(Bool(true)) }
