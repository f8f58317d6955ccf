/// Bytes going out to a file that is published whole when complete (hubgeo's `OutputFile`).
public protocol TileOutput: AnyObject {
    /// Writes the bytes.
    func write(bytes: UnsafeRawBufferPointer) throws
}
