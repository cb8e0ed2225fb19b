// A duration as the seconds a `Double` holds: where a duration meets a number (a JSON field in
// seconds, a wall-clock instant's arithmetic, a rate).

extension Duration {
    /// The duration in seconds, with a fraction (attoseconds beyond a double's precision dropped).
    public var inSeconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
