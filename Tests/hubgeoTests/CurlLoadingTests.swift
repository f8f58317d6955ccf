import CCurl
import Foundation
@testable import HubGeoHTTP
import HubGeoTestSupport
import Testing

/// hubgeo does not link libcurl: the commands that fetch load libcurl.so.4 on first use
/// (`hubgeo_curl_load`), and the others never map it, nor its TLS and other libraries.
@Suite("CurlClient loading libcurl at run time")
struct CurlLoadingTests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
    }

    /// Runs hubgeo with the dynamic loader's list of the files it loads (`LD_DEBUG=files`, on stderr).
    func runListingLoadedFiles(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> CLIRunner.Result {
        var runner = cli
        runner.environment["LD_DEBUG"] = "files"
        runner.environment.merge(extraEnvironment) { $1 }
        return try runner.run(arguments)
    }

    /// The libraries the loader opened, by the names asked for ("file=NAME [0];  ...").
    func loadedFiles(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "file=") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    @Test func queriesNeverLoadLibcurlNorSpatiaLite() throws {
        // The first query imports the built-in data (SpatiaLite, no fetch); the second only reads.
        let first = try runListingLoadedFiles(["near", "51.4", "5.4", "--km", "20"])
        #expect(first.status == 0, "\(first.stderr.suffix(2000))")
        let second = try runListingLoadedFiles(["near", "51.4", "5.4", "--km", "20"])
        #expect(second.status == 0, "\(second.stderr.suffix(2000))")
        #expect(second.stdout.contains("Fotogroep Waalre"))

        let firstFiles = loadedFiles(first.stderr), secondFiles = loadedFiles(second.stderr)
        // The check itself works: the loader listed the libraries, mod_spatialite among the first run's.
        #expect(firstFiles.contains { $0.hasPrefix("libsqlite3.so") })
        #expect(firstFiles.contains { $0.contains("mod_spatialite") })
        // The import's SpatiaLite brings PROJ, which links a libcurl of its own (libcurl-gnutls.so.4);
        // hubgeo's is libcurl.so.4.
        #expect(!firstFiles.contains("libcurl.so.4"), "\(firstFiles)")
        #expect(!secondFiles.contains { $0.contains("libcurl") }, "\(secondFiles)")
        #expect(!secondFiles.contains { $0.contains("mod_spatialite") }, "\(secondFiles)")
    }

    /// An import of files (here the real tree in `Data/`) and of the built-in data makes no
    /// HTTP client: libcurl is loaded by the first request, never before.
    @Test func aLocalImportNeverLoadsLibcurl() throws {
        let root = TestPaths.data.appendingPathComponent("root.level1.json").path
        for arguments in [["import", root], ["import"]] {
            let result = try runListingLoadedFiles(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr.suffix(2000))")
            let files = loadedFiles(result.stderr)
            #expect(files.contains { $0.hasPrefix("libsqlite3.so") }, "the loader's list is there")
            #expect(!files.contains("libcurl.so.4"), "\(arguments): \(files)")
        }
    }

    @Test func aFetchLoadsLibcurl() throws {
        // Nothing listens on port 9 of the loopback: the fetch fails, after loading libcurl.
        let result = try runListingLoadedFiles(["import", "http://127.0.0.1:9/root_.level1.json"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("127.0.0.1:9"))
        #expect(loadedFiles(result.stderr).contains("libcurl.so.4"), "\(result.stderr.suffix(2000))")
    }

    /// A libcurl.so.4 without libcurl's functions (here libc, found first through LD_LIBRARY_PATH):
    /// the fetch fails with a message naming the library and the function, and nothing crashes.
    @Test func aFetchWithoutAUsableLibcurlFailsNamingIt() throws {
        // Read to the end: a /proc file reports a size of 0.
        let maps = String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
        let libc = try #require(maps.split(separator: "\n").lazy
            .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
            .first { $0.hasSuffix("/libc.so.6") })
        let libraries = try TestPaths.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: libraries.path("libcurl.so.4"), withDestinationPath: libc)

        var runner = cli
        runner.environment["LD_LIBRARY_PATH"] = libraries.url.path
            + (runner.environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? "")
        let result = try runner.run(["import", "http://127.0.0.1:9/root_.level1.json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("http://127.0.0.1:9/root_.level1.json"))
        #expect(result.stderr.contains("libcurl.so.4 has no curl_global_init"), "\(result.stderr)")
    }

    @Test func theLoaderNamesAMissingLibraryOrFunction() {
        var error = [CChar](repeating: 0, count: 512)
        #expect(hubgeo_curl_probe("libcurl.so.4", &error, error.count) == 0)

        #expect(hubgeo_curl_probe("libhubgeo-absent.so.4", &error, error.count) == -1)
        let missing = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(missing.contains("cannot load libcurl (libhubgeo-absent.so.4"), "\(missing)")
        #expect(missing.contains("cannot open shared object file"), "\(missing)")

        #expect(hubgeo_curl_probe("libc.so.6", &error, error.count) == -1)
        let incomplete = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(incomplete.hasPrefix("libc.so.6 has no curl_global_init: "), "\(incomplete)")
    }
}
