/// A count and its noun for a message: "1 organization", "2 organizations" (the noun gets an "s"
/// unless the count is 1; `plural` for a noun whose plural is not that).
package func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
