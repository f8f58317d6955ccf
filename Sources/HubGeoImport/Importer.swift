import CPOSIX
import Foundation
import HubGeoDatabase
import HubGeoModel
import HubGeoReader

/// Imports a Photo Club Hub tree into a hubgeo database: reads it once (streaming, through
/// ``HubLoader/load(root:level2Files:each:)``: the ``Level1TreeWalker`` and the Level 2 resolver),
/// syncs the database with it (added, changed, removed), and says what it did.
///
/// Atomicity, without reading the tree twice:
/// - **An existing database** is synced in one write transaction. SQLite in WAL mode writes
///   every page of an open transaction to the `-wal` file only; the database file itself is
///   changed only when a committed transaction is checkpointed. So a failure anywhere (bad JSON
///   half-way, a missing include, a full disk) rolls back and leaves the file byte for byte as
///   it was, and readers keep reading the old data meanwhile. Opening a current database writes
///   nothing (``OrganizationStore/init(path:access:)``).
/// - **A new database** is built under a private name beside it (`.NAME.PID.RANDOM.staging`),
///   closed (the WAL checkpointed into it), flushed, and then linked to its name with `link(2)`,
///   which fails if the name exists. "New" is thus decided by the file system at the moment the
///   database appears: no other process ever sees a half-made database, a failed first import
///   removes only its own staging file, and when another import created the database meanwhile,
///   the staged data is synced into that one (from the staged file, not by reading the tree again).
///
/// With a ``CachedRemoteReader``, documents fetched by URL go through the document cache, whose
/// writes are part of the same transaction (or staged database): the cache and the organizations
/// always hold the same import.
///
/// A tree of files or the built-in data (no include followed as a URL) is read on a thread of its
/// own while this thread writes (`OverlappedLoad`): the same organizations in the same order, so the
/// same database, with reading and writing on both cores. Any other tree is read in line.
///
/// SIGINT or SIGTERM (`Interruption`, once the signal handlers are installed) stop an import as
/// a failure does: no further request, the database as it was, `Interrupted` thrown (or the
/// error of the fetch the signal cut short).
public struct Importer: Sendable {
    /// The reader of the tree's documents.
    public let reader: DocumentReader
    /// The document cache's reader, when remote documents go through it.
    public let remote: CachedRemoteReader?
    /// Follow include URLs as written (``Level1TreeWalker/followsIncludeURLs``).
    public var followsIncludeURLs = false
    /// Read and sync every document even when none changed since the last import (see
    /// ``Report/keptUnchanged``).
    public var rereadsEverything = false

    /// An importer that reads documents with `reader` (``DocumentReader/standard`` for files, the built-in data and http(s)).
    public init(reader: DocumentReader) {
        self.reader = reader
        self.remote = nil
    }

    /// An importer whose http(s) documents go through the document cache.
    public init(remote: CachedRemoteReader) {
        self.reader = remote.reader
        self.remote = remote
    }

    /// What an import read and did.
    public struct Report: Sendable {
        /// What was read besides the organizations (which went to the database): files, diagnostics (sorted), orphans.
        public var loaded: LoadSummary
        /// What changed in the database.
        public var summary: ImportSummary
        /// The number of clubs read.
        public var clubs = 0
        /// The number of museums read.
        public var museums = 0
        /// Every override a Level 2 file applied, in reading order.
        public var overrides: [AppliedOverride] = []
        /// The database written.
        public var databasePath: String
        /// True when this import created the database.
        public var createdDatabase = false
        /// Things the user should know about the database itself (a half-made one rebuilt).
        public var notes: [String] = []
        /// What happened to each document fetched by URL (nil without a ``CachedRemoteReader``).
        public var documents: DocumentTraffic?
        /// True when every document the last import read (asked the same) hashed the same again:
        /// none was parsed, and the organizations were kept as they were. The other fields are then
        /// those of the last import (its overrides by organization as stored), and nothing changed.
        public var keptUnchanged = false
        /// The documents read (and hashed) for this import, Level 1 and Level 2; when
        /// ``keptUnchanged``, none of them was parsed.
        public var documentsRead = 0
    }

    /// An override of a Level 2 file: the organization it changed and how.
    public struct AppliedOverride: Sendable {
        /// The organization changed.
        public var organization: OrganizationIdentity
        /// The field changed, with its Level 1 and Level 2 values.
        public var override: FieldOverride
    }

    /// Syncs the database at `path` with the tree at `root` (plus `level2Files`), creating the
    /// database when there is none. Throws, leaving the database as it was, when the tree cannot
    /// be read whole or the database cannot be written.
    public func run(root: DocumentLocation, level2Files: [DocumentLocation] = [], database path: String,
                    now: Date = Date()) throws -> Report {
        do {
            return try runOnce(root: root, level2Files: level2Files, database: path, now: now)
        } catch {
            // "disk I/O error" from a -shm or -wal that cannot grow on a full disk says so, with the folder.
            throw OrganizationStore.namingFullDisk(error, path: path)
        }
    }

    private func runOnce(root: DocumentLocation, level2Files: [DocumentLocation], database path: String, now: Date) throws -> Report {
        var notes: [String] = []
        if FileManager.default.fileExists(atPath: path) {
            do {
                let store = try OrganizationStore(path: path, access: .importing)
                return try sync(root: root, level2Files: level2Files, into: store, now: now)
            } catch StoreError.halfMade(_, let reason) {
                notes.append("\(path) was left half-made by an earlier run (\(reason)); it held no data and was built again")
                Self.removeDatabaseFiles(path)
            }
        }
        var report = try create(root: root, level2Files: level2Files, database: path, now: now)
        report.notes = notes + report.notes
        return report
    }

    // MARK: - Sync into an existing database

    private func sync(root: DocumentLocation, level2Files: [DocumentLocation], into store: OrganizationStore,
                      now: Date) throws -> Report {
        var report = Report(loaded: LoadSummary(source: root.description),
                            summary: ImportSummary(), databasePath: store.path)
        report.summary = try store.runImport(source: root.description, now: now) { transaction in
            let request = try Self.request(root: root, level2Files: level2Files, followsIncludeURLs: followsIncludeURLs)
            // Remote documents go through the cache in this import's transaction.
            let session = try remote?.session(cache: transaction.documentCache, now: now)
            let sessionReader = session?.reader ?? reader
            let fetched = FetchedDocuments()
            if !rereadsEverything, let record = try transaction.lastRecord(request: request) {
                if try Self.readsTheSame(record, reader: fetched.keeping(sessionReader), count: &report.documentsRead) {
                    transaction.keepUnchanged()
                    report.keep(record, overrides: try transaction.storedOverrides(), source: root.description)
                    report.documents = session?.traffic
                    return
                }
                report.documentsRead = 0
            }
            // A load that can reach no http(s) document (a local tree or the built-in data, includes by
            // name) reads through no document cache, whose writes belong to this transaction's
            // connection: it runs on a thread of its own, overlapped with the writing here. Any other
            // load reads in line, on this thread.
            let overlaps = Self.readsNoRemoteDocument(root: root, level2Files: level2Files, followsIncludeURLs: followsIncludeURLs)
            var documentReader = overlaps ? DocumentReader(remoteFetch: nil, maxFileBytes: sessionReader.maxFileBytes)
                                          : fetched.replaying(sessionReader)
            let log = DocumentReadLog()  // thread-safe; read below only after the load ended
            documentReader.readLog = log
            let loader = HubLoader(reader: documentReader, followsIncludeURLs: followsIncludeURLs)
            let load: @Sendable ((Organization) throws -> Void) throws -> LoadSummary = { each in
                try loader.load(root: root, level2Files: level2Files, each: each)
            }
            var declared: [String: Int] = [:]
            let add = { (imported: ImportedOrganization) throws in
                try Interruption.check()
                report.count(imported.organization)
                declared[imported.organization.level1Source, default: 0] += 1
                try transaction.add(imported)
            }
            report.loaded = try overlaps ? OverlappedLoad().run(load, prepare: ImportedOrganization.init, each: add)
                                         : load { try add(ImportedOrganization($0)) }
            // SIGINT or SIGTERM roll the import back, as any failure does.
            try Interruption.check()
            report.documents = session?.traffic
            let answers = log.answers
            report.documentsRead = answers.count(where: { $0.kind == .document && $0.digest != nil })
            transaction.record = Self.record(request: request, answers: answers, loaded: report.loaded, declared: declared)
        }
        report.notes += report.summary.repairs.map { "\(store.path): \($0)" }
        return report
    }

    /// Whether a load of `root` and `level2Files` reads files and built-in data only: neither is
    /// a URL, and includes are read by name beside the including document (a URL include of a
    /// local tree would be fetched).
    static func readsNoRemoteDocument(root: DocumentLocation, level2Files: [DocumentLocation], followsIncludeURLs: Bool) -> Bool {
        func isRemote(_ location: DocumentLocation) -> Bool {
            if case .remote = location { return true }
            return false
        }
        return !followsIncludeURLs && !isRemote(root) && !level2Files.contains(where: isRemote)
    }

    // MARK: - The record of what an import read

    /// What an import is asked, as its record keeps it: hubgeo's version, the program's own file (its size and time: another build of the same version may read
    /// differently, and its first import reads everything), the root (a folder resolved to its
    /// root file, as the walk resolves it), the Level 2 files given and the include rule. Throws
    /// when the root cannot be found (as the load would).
    static func request(root: DocumentLocation, level2Files: [DocumentLocation], followsIncludeURLs: Bool) throws -> String {
        let resolved = try Level1TreeWalker.resolveRoot(root)
        var program = hubgeo_file_status()
        let build = hubgeo_stat("/proc/self/exe", &program) == 0
            ? "\(program.size) bytes of \(program.modified_seconds).\(program.modified_nanoseconds)" : "unknown"
        return (["hubgeo \(HubGeoVersion.current), build \(build)",
                 "root \(resolved.description)", "include URLs \(followsIncludeURLs ? "followed" : "by name")"]
                + level2Files.map { "level2 \($0.description)" }).joined(separator: "\n")
    }

    /// Whether every document and listing of `record` reads the same again through `reader`
    /// (stops at the first that does not; a document that cannot be read now is not the same:
    /// the load reads it and says why). `count`: the documents read.
    static func readsTheSame(_ record: ImportRecord, reader: DocumentReader, count: inout Int) throws -> Bool {
        for document in record.documents {
            let digest: UInt64?
            do {
                digest = try DocumentReadLog.currentDigest(of: document.kind == .document ? .document : .listing,
                                                           location(stored: document.location), reading: reader)
            } catch {
                try Interruption.check()
                return false
            }
            if document.kind == .document && digest != nil { count += 1 }
            guard digest == document.digest else { return false }
        }
        try Interruption.check()
        return true
    }

    /// The record of a load: each answer it had, with what it took from each document. Nil when
    /// a location cannot be stored as it was read (a URL with a user or password, which hubgeo
    /// does not store) or was read twice with different answers (changed while it was read).
    static func record(request: String, answers: [DocumentReadLog.Entry], loaded: LoadSummary,
                       declared: [String: Int]) -> ImportRecord? {
        let level1 = Set(loaded.level1Files), level2 = Set(loaded.level2Files), orphans = Set(loaded.orphanLevel2Files)
        var documents: [ImportRecord.Document] = []
        var places: Set<String> = []
        for answer in answers {
            let location = answer.location.description
            if case .remote(let url) = answer.location, location != url.absoluteString { return nil }
            guard places.insert("\(answer.kind.rawValue) \(location)").inserted else { return nil }
            var role: ImportRecord.Document.Role?
            var organizations = 0
            if answer.kind == .document && answer.digest != nil {
                if level1.contains(location) {
                    role = .level1
                    organizations = declared[location] ?? 0
                } else if level2.contains(location) {
                    role = .level2
                    organizations = 1
                } else if orphans.contains(location) {
                    role = .orphan
                }
            }
            documents.append(ImportRecord.Document(kind: answer.kind == .document ? .document : .listing, location: location,
                                                   digest: answer.digest, role: role, organizations: organizations))
        }
        return ImportRecord(request: request, documents: documents, diagnostics: loaded.diagnostics)
    }

    /// The location a record stores as `text` (``DocumentLocation/description``).
    static func location(stored text: String) -> DocumentLocation {
        let embedded = "embedded:"
        if text.hasPrefix(embedded) { return .embedded(String(text.dropFirst(embedded.count))) }
        return DocumentLocation(argument: text)
    }

    // MARK: - A new database

    private func create(root: DocumentLocation, level2Files: [DocumentLocation], database path: String,
                        now: Date) throws -> Report {
        let staging = try StagingFile(beside: path)
        defer { staging.remove() }
        var report: Report
        do {
            let store = try OrganizationStore(path: staging.path, access: .staging)
            report = try sync(root: root, level2Files: level2Files, into: store, now: now)
            try store.finishStaging()
            try staging.flush()
        } catch StoreError.cannotOpen(_, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)  // the name the user gave, not the staging file's
        }
        report.databasePath = path
        if link(staging.path, path) == 0 {
            report.createdDatabase = true
            Self.syncDirectory(of: path)
            return report
        }
        let linkError = errno
        guard linkError == EEXIST else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(linkError)))
        }
        // Another process created the database while this one read the tree: sync the staged data into it.
        let staged = try OrganizationStore(path: staging.path, access: .importing)
        let store = try OrganizationStore(path: path, access: .importing)
        report.summary = try store.importOrganizations(source: root.description, now: now) { add, documentCache in
            try staged.forEachStored { try add($0) }
            try DocumentCache.copy(from: staged, into: documentCache)
        }
        try staged.checkpointAndClose()
        return report
    }

    /// Removes a database file and its journals.
    static func removeDatabaseFiles(_ path: String) {
        unlink(path)
        for companion in SQLiteCompanions.all { unlink(path + companion.suffix) }
    }

    /// Makes the new directory entry durable.
    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

extension Importer.Report {
    /// The report of an import that kept the organizations: what the last one read.
    mutating func keep(_ record: ImportRecord, overrides: [(organization: OrganizationIdentity, override: FieldOverride)],
                       source: String) {
        keptUnchanged = true
        loaded = LoadSummary(source: source)
        loaded.diagnostics = record.diagnostics
        func files(_ role: ImportRecord.Document.Role) -> [String] { record.documents.filter { $0.role == role }.map(\.location) }
        loaded.level1Files = files(.level1)
        loaded.level2Files = files(.level2)
        loaded.orphanLevel2Files = files(.orphan)
        clubs = record.clubs
        museums = record.museums
        self.overrides = overrides.map { Importer.AppliedOverride(organization: $0.organization, override: $0.override) }
    }

    mutating func count(_ organization: Organization) {
        if organization.type == .club { clubs += 1 } else { museums += 1 }
        for override in organization.overrides {
            overrides.append(Importer.AppliedOverride(organization: organization.identity, override: override))
        }
    }
}
