import GRDB
import HubGeoModel
import HubGeoReader

extension OrganizationStore {
    /// Runs `body` with a store whose every read sees one state of the database: one read
    /// transaction on one connection (in WAL mode SQLite keeps it on the commit it started at),
    /// whatever an import commits meanwhile. An answer that takes more than one statement (clubs
    /// then museums, a count then the rows, an organization then its localized place) reads
    /// through it, so that it never mixes two imports. The store given to `body` only reads and
    /// must not outlive the call; `snapshot` on it runs `body` in the same snapshot.
    public func snapshot<T>(_ body: (OrganizationStore) throws -> T) throws -> T {
        if database.snapshot != nil { return try body(self) }
        return try database.read { db in try body(OrganizationStore(snapshotOf: self, db: db)) }
    }

    /// As ``snapshot(_:)``, on the database's own reader threads. Cancelling the task interrupts
    /// the statement in progress (`sqlite3_interrupt`) and makes every later one throw, so the
    /// connection is free again at once; the call then throws `CancellationError` or a
    /// ``StoreError`` with SQLITE_INTERRUPT.
    public func snapshot<T: Sendable>(_ body: @escaping @Sendable (OrganizationStore) throws -> T) async throws -> T {
        if database.snapshot != nil { return try body(self) }
        return try await database.read { db in try body(OrganizationStore(snapshotOf: self, db: db)) }
    }
}
