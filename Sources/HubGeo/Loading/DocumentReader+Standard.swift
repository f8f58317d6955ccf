extension DocumentReader {
    /// Reads files, embedded data and http(s) URLs.
    public static var standard: DocumentReader { DocumentReader(remoteFetch: nil) }
}
