/// The order of streamed results.
public enum ResultOrder: Sendable {
    /// By stable id: what `hubgeo export` writes (deterministic, needs no sort of whole rows).
    case stableID
    /// Nearest first, then by name (selections with a centre only).
    case distance
    /// By full name, then town.
    case name
}
