/// A JSON string literal, quotes included: ``JSONString/quoted(_:for:)``.
package enum JSONStringLiteral {
    package static func quoted(_ text: String) -> String {
        JSONString.quoted(text)
    }
}
