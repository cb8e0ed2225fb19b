// A duration as the seconds a `Double` holds: where a duration meets a number (a JSON field in
// seconds, a wall-clock instant's arithmetic, a rate).

extension Duration {
    /// The duration in seconds, with a fraction (attoseconds beyond a double's precision dropped).
    package var inSeconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

extension Duration {
    /// The duration as a log line says it: whole seconds, rounded (`12 s`, `300 s`), and below a
    /// second its tenths (`0.5 s`), so that a short back-off does not read as `0 s`.
    package var secondsText: String {
        let seconds = inSeconds
        guard abs(seconds) < 1, seconds != 0 else { return "\(Int(seconds.rounded())) s" }
        return "\((seconds * 10).rounded() / 10) s"
    }
}
