// swift-tools-version:6.2
import PackageDescription

// hubgeo builds and runs on Linux with glibc only: CPOSIX uses glibc's signal and stat layouts
// (`sa_handler`, `st_mtim`), it loads `libcurl.so.4` with dlopen and links SpatiaLite from Debian's
// packages. No other platform is declared, because none is built or tested.
let package = Package(
    name: "hubgeo",
    products: [
        .executable(name: "hubgeo", targets: ["hubgeo"]),
        .library(name: "HubGeo", targets: ["HubGeo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // `swift package generate-documentation` (`make docs`): the DocC catalog of HubGeo.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libcurl, loaded at run time (dlopen) by the commands that fetch, never linked; typed
        // wrappers for its variadic setopt/getinfo. Its header comes from libcurl4-openssl-dev.
        .target(name: "CCurl"),
        // gzip and gunzip of one buffer, for vector tiles and their archives: a tile (up to 16 KiB) by
        // hubgeo's own deflate encoder (one block of fixed Huffman codes, CZlib.c), larger buffers and
        // every gunzip by zlib (libz, linked).
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        // The POSIX calls whose structs the Swift reads (stat, statvfs, getrlimit, sigaction, clocks,
        // poll, a loopback bind), behind structs of its own: clang gives a glibc struct's members to
        // whichever module read its header first (CPOSIX.h says why).
        .target(name: "CPOSIX"),
        // The map's clusters: supercluster's hierarchical greedy clustering for every zoom, in flat
        // arrays, queried per view, serialized as one blob. Depends on nothing of ours.
        .target(name: "HubGeoClusters"),
        // Turns Data/*.json (and docs/schemas/, and the map page's web files) into Swift source so the
        // binary carries them.
        .executableTarget(name: "EmbedData"),
        .plugin(
            name: "EmbedDataPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedData"]),
        // The values: organizations, geodesy, document locations and diagnostics, small helpers.
        // Depends on nothing of ours.
        .target(name: "HubGeoModel", dependencies: ["CPOSIX"]),
        // The JSON parser, scanner and cursor, over memory-mapped files.
        .target(name: "HubGeoJSON", dependencies: ["CPOSIX"]),
        // HTTP over libcurl.
        .target(name: "HubGeoHTTP", dependencies: ["CCurl", "HubGeoModel"]),
        // Reads a Photo Club Hub tree: the Level 1 walker, the Level 2 resolver and merge, the document
        // readers (files, the data built into hubgeo, http(s) through the document cache's reading side).
        .target(
            name: "HubGeoReader",
            dependencies: ["HubGeoModel", "HubGeoJSON", "HubGeoHTTP"],
            plugins: ["EmbedDataPlugin"]),
        // The one owner of the database file and every table in it: opening and migrations, the
        // sync of organizations into it, the queries, the geocode cache's and the document cache's
        // rows, the cluster index an import builds and stores. Knows nothing of how data is read.
        // The one owner of SQLite too: an MBTiles archive's tables are written through it.
        .target(
            name: "HubGeoDatabase",
            dependencies: [
                "CPOSIX",
                "HubGeoModel",
                "HubGeoClusters",
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_* where GRDB is not used (each such file says why).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // The import: the reader feeding the database (a tree read once, streamed into one
        // transaction, or into a staged file published with link(2)), and the first use of a
        // database, which imports the built-in data.
        .target(
            name: "HubGeoImport",
            dependencies: ["CPOSIX", "HubGeoModel", "HubGeoReader", "HubGeoDatabase"]),
        // Nominatim over HTTP, and the localization of towns and countries it answers.
        .target(
            name: "HubGeoGeocoding",
            dependencies: ["CPOSIX", "HubGeoModel", "HubGeoJSON", "HubGeoHTTP", "HubGeoDatabase"]),
        // The one publisher of output files: what `-o PATH` names, checked before any work (never the
        // database being read or its SQLite companions), written under a private name beside it and
        // renamed into place when complete, or written into a device in place.
        .target(name: "HubGeoOutput", dependencies: ["CPOSIX", "HubGeoModel"]),
        // GeoJSON, KML and JSON written from the database's rows, output files, and the map page, whose
        // script and style (Map/Web: map-common.js, map-embedded.js, map-served.js, map.css) the plugin embeds.
        .target(
            name: "HubGeoExport",
            dependencies: ["HubGeoModel", "HubGeoJSON", "HubGeoDatabase", "HubGeoClusters", "HubGeoOutput"],
            exclude: ["Map/Web"],
            plugins: ["EmbedDataPlugin"]),
        // All of the vector tiles, data flowing one way: the database's rows and stored cluster index in
        // (HubGeoDatabase), the tile grid, the MVT 2.1 encoding of a tile's clusters and organizations
        // with their properties, the served tiles' cache, and the archives out through the one publisher
        // (HubGeoOutput): PMTiles v3, MBTiles 1.3 (its SQLite through HubGeoDatabase), a z/x/y folder.
        // The server's route only calls it.
        .target(
            name: "HubGeoTiles",
            dependencies: ["HubGeoClusters", "HubGeoModel", "HubGeoJSON", "HubGeoDatabase", "HubGeoOutput", "CPOSIX", "CZlib"]),
        // `hubgeo validate`: the checks of a tree, its schema, its towns; the JSON Schemas of docs/schemas/.
        .target(
            name: "HubGeoValidation",
            dependencies: ["HubGeoModel", "HubGeoJSON", "HubGeoReader", "HubGeoDatabase", "HubGeoGeocoding"],
            plugins: ["EmbedDataPlugin"]),
        // The library's one import: re-exports every target above.
        .target(
            name: "HubGeo",
            dependencies: [
                "HubGeoModel", "HubGeoJSON", "HubGeoHTTP", "HubGeoReader", "HubGeoDatabase", "HubGeoImport",
                "HubGeoGeocoding", "HubGeoExport", "HubGeoValidation", "HubGeoClusters", "HubGeoOutput", "HubGeoTiles",
            ]),
        // `hubgeo serve`: the read-only HTTP server (map page and GeoJSON API) on Hummingbird. Neither it
        // nor the CLI depends on GRDB: a failed SQLite call reaches them as HubGeoDatabase's DatabaseFailure.
        .target(
            name: "HubGeoServer",
            dependencies: [
                "CPOSIX",
                "HubGeo",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .executableTarget(
            name: "hubgeo",
            dependencies: [
                "HubGeo",
                "HubGeoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Fuzzing: the targets and the seeded mutator (a library, so that tests can run a smoke),
        // and the `hubgeo-fuzz` runner used by `make fuzz`.
        .target(name: "HubGeoFuzzKit", dependencies: ["HubGeo"]),
        .executableTarget(name: "hubgeo-fuzz", dependencies: ["HubGeoFuzzKit"], path: "Sources/HubGeoFuzz"),
        // The same targets under libFuzzer (-sanitize=fuzzer -DHUBGEO_LIBFUZZER); else a reproducer.
        .executableTarget(name: "hubgeo-libfuzzer", dependencies: ["HubGeoFuzzKit"], path: "Sources/HubGeoLibFuzzer"),
        // In-process query timings for `make bench` (Benchmarks/run.py).
        .executableTarget(
            name: "hubgeo-bench",
            dependencies: ["HubGeo", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            path: "Benchmarks/Sources/hubgeo-bench"),
        // Build, serialization and view timings of the cluster index alone (`make bench`'s cluster rows).
        .executableTarget(name: "hubgeo-cluster-bench", dependencies: ["HubGeoClusters"], path: "Benchmarks/Sources/hubgeo-cluster-bench"),
        // What every test target uses: running the built hubgeo and external tools, scratch
        // directories, fixtures (Tests/Fixtures), stores and stand-in servers. A library target, so
        // what it shares is `package`.
        .target(
            name: "HubGeoTestSupport",
            dependencies: ["CPOSIX", "HubGeo", "HubGeoDatabase", "HubGeoModel"],
            path: "Tests/HubGeoTestSupport",
            exclude: ["action_runner.py", "headless_chromium.py", "loopback_server.py", "map_browser.py", "maplibre_browser.py",
                      "pmtiles_verify.py", "vector_tiles.py"]),
        // A test target per library module, and the server's and the commands' (as swift-collections
        // has); those that run the built hubgeo depend on it, so that it is built first.
        // The values: geodesy against an independent reference, search boxes.
        .testTarget(
            name: "HubGeoModelTests",
            dependencies: [
                "HubGeoModel",
                "HubGeoTestSupport",
            ]),
        // The JSON parser.
        .testTarget(
            name: "HubGeoJSONTests",
            dependencies: [
                "HubGeoJSON",
            ]),
        // libcurl over real HTTP to a loopback server.
        .testTarget(
            name: "HubGeoHTTPTests",
            dependencies: [
                "HubGeoHTTP",
                "HubGeoTestSupport",
            ]),
        // The Level 1 walker and decoder, the loader.
        .testTarget(
            name: "HubGeoReaderTests",
            dependencies: [
                "HubGeoJSON",
                "HubGeoModel",
                "HubGeoReader",
                "HubGeoTestSupport",
            ]),
        // Queries, the spatial index, the geocode cache, row decoding.
        .testTarget(
            name: "HubGeoDatabaseTests",
            dependencies: [
                "HubGeoClusters",
                "HubGeoDatabase",
                "HubGeoImport",
                "HubGeoModel",
                "HubGeoReader",
                "HubGeoTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // The sync, and the document cache under it.
        .testTarget(
            name: "HubGeoImportTests",
            dependencies: [
                "HubGeoDatabase",
                "HubGeoImport",
                "HubGeoModel",
                "HubGeoReader",
                "HubGeoTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // Nominatim's answers and the localization, against a stand-in on 127.0.0.1.
        .testTarget(
            name: "HubGeoGeocodingTests",
            dependencies: [
                "HubGeoDatabase",
                "HubGeoExport",
                "HubGeoGeocoding",
                "HubGeoHTTP",
                "HubGeoImport",
                "HubGeoModel",
                "HubGeoTestSupport",
            ]),
        // The writers' text and bytes.
        .testTarget(
            name: "HubGeoExportTests",
            dependencies: [
                "HubGeoDatabase",
                "HubGeoExport",
                "HubGeoModel",
                "HubGeoOutput",
                "HubGeoTestSupport",
            ]),
        // The tiles in process: the encoder, the metadata, gzip, a served tile against an archive's.
        .testTarget(
            name: "HubGeoTilesTests",
            dependencies: [
                "HubGeoClusters",
                "HubGeoDatabase",
                "HubGeoTiles",
                "HubGeoTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // Document positions, close coordinates, the validator.
        .testTarget(
            name: "HubGeoValidationTests",
            dependencies: [
                "HubGeoJSON",
                "HubGeoModel",
                "HubGeoReader",
                "HubGeoValidation",
                "HubGeoTestSupport",
            ]),
        // `hubgeo serve`'s routes, in process (Hummingbird's `app.test(.router)`).
        .testTarget(
            name: "HubGeoServerTests",
            dependencies: [
                "HubGeoClusters",
                "HubGeoDatabase",
                "HubGeoExport",
                "HubGeoImport",
                "HubGeoModel",
                "HubGeoReader",
                "HubGeoServer",
                "HubGeoTestSupport",
                "HubGeoTiles",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        // A smoke run of every fuzz target.
        .testTarget(
            name: "HubGeoFuzzKitTests",
            dependencies: [
                "HubGeoFuzzKit",
                "HubGeoTestSupport",
            ]),
        // The commands, run as a user runs them (the built binary), by concern.
        .testTarget(
            name: "hubgeoTests",
            dependencies: [
                "HubGeoClusters",
                "HubGeoDatabase",
                "HubGeoExport",
                "HubGeoGeocoding",
                "HubGeoHTTP",
                "HubGeoImport",
                "HubGeoJSON",
                "HubGeoModel",
                "HubGeoReader",
                "HubGeoTiles",
                "HubGeoValidation",
                "HubGeoTestSupport",
                "hubgeo",
                "CCurl",
                "CPOSIX",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "HubGeoClustersTests", dependencies: ["HubGeoClusters"]),
        // The integration tier: the built hubgeo against a real Nominatim 5.3.3 on 127.0.0.1, which
        // Tests/Integration/nominatim/nominatim.sh sets up (`make test-integration`; not in `make test`).
        .testTarget(
            name: "HubGeoIntegrationTests",
            dependencies: ["hubgeo", "HubGeoTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// A warning in this repository's Swift code fails its build (CI's too): the build prints none.
// MemberImportVisibility (SE-0444): a file sees the members (extensions' methods, conformances'
// operators, a C struct's fields) of the modules it imports itself only, not of every module its target
// links, so the imports at the head of a file name its neighbours, and a removed import that was used
// fails the build. No Swift file reads a glibc struct's members: clang gives those to whichever C module
// (Glibc, libdispatch's CDispatch, NIO's CNIOLinux, CCurl) read the header first, which changed from one
// build to the next; CPOSIX's own structs stand in for them (CPOSIX.h).
// SwiftPM applies these settings to this package as the root only, never when it is a dependency.
for target in package.targets where target.type != .plugin && !["CCurl", "CPOSIX", "CZlib"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .treatAllWarnings(as: .error),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
