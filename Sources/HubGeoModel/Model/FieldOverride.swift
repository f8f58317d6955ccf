/// One value that a club's Level 2 file changed relative to its Level 1 entry.
public struct FieldOverride: Hashable, Sendable, Codable {
    /// The field as the data names it: "coordinates", "website", "remark[NL]", ...
    public var field: String
    /// The Level 1 value, nil when Level 1 had none.
    public var level1Value: String?
    /// The Level 2 value that is now in effect.
    public var level2Value: String

    /// An override of `field` from `level1Value` to `level2Value`.
    public init(field: String, level1Value: String?, level2Value: String) {
        self.field = field
        self.level1Value = level1Value
        self.level2Value = level2Value
    }
}
