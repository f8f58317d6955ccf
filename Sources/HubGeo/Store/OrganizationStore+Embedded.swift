extension OrganizationStore {
    /// Opens the database at `path`; when it holds no organization yet, imports the data
    /// built into hubgeo (offline) and returns what that import did.
    public static func openImportingEmbeddedDataIfEmpty(path: String) throws -> (store: OrganizationStore, firstImport: (HubData, ImportSummary)?) {
        let store = try OrganizationStore(path: path)
        guard try store.isEmpty() else { return (store, nil) }
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        let summary = try store.importData(data)
        return (store, (data, summary))
    }
}
