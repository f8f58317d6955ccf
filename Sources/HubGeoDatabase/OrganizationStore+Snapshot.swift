/// What reads the organizations: the store itself, each call in a read transaction of its own,
/// and a ``StoreSnapshot``, every call in the snapshot's one transaction. The queries are written
/// once, for both, in extensions of this protocol.
public protocol OrganizationReading: ~Copyable {
    /// The connections the reads go through (opaque outside hubgeo).
    var database: StoreDatabase { get }
}

/// One state of the database, lent to the block of ``OrganizationReading/snapshot(_:)``: every
/// read through it sees the same commit, whatever an import commits meanwhile. It cannot be
/// copied, so it cannot outlive the block that holds the read transaction; it only reads.
public struct StoreSnapshot: OrganizationReading, ~Copyable {
    /// The snapshot's connection (opaque outside hubgeo).
    public let database: StoreDatabase

    /// The snapshot of connections that read in a snapshot's transaction (``StoreSnapshot/database``
    /// of the snapshot of a block that still runs).
    package init(_ database: StoreDatabase) {
        self.database = database
    }
}

extension OrganizationReading where Self: ~Copyable {
    /// Runs `body` with a snapshot whose every read sees one state of the database: one read
    /// transaction on one connection (in WAL mode SQLite keeps it on the commit it started at),
    /// whatever an import commits meanwhile. An answer that takes more than one statement (clubs
    /// then museums, a count then the rows, an organization then its localized place) reads
    /// through it, so that it never mixes two imports. In a snapshot, `snapshot` runs `body` in
    /// the same one.
    public func snapshot<T>(_ body: (borrowing StoreSnapshot) throws -> T) throws -> T {
        if database.snapshot != nil { return try body(StoreSnapshot(database)) }
        return try database.read { db in try body(StoreSnapshot(database.lending(db))) }
    }
}

extension OrganizationStore {
    /// As ``OrganizationReading/snapshot(_:)``, on the database's own reader threads. Cancelling
    /// the task interrupts the statement in progress (`sqlite3_interrupt`) and makes every later
    /// one throw, so the connection is free again at once; the call then throws
    /// `CancellationError` or a ``StoreError`` with SQLITE_INTERRUPT.
    public func snapshot<T: Sendable>(_ body: @escaping @Sendable (borrowing StoreSnapshot) throws -> T) async throws -> T {
        let database = self.database
        return try await database.read { db in try body(StoreSnapshot(database.lending(db))) }
    }
}
