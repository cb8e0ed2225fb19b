// Text without the whitespace around it (Character.isWhitespace, so no Foundation character
// set): a broker URL here, and the sinks' settings and commands.

extension String {
    package var trimmingWhitespace: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
